import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { isApiError } from '../client';
import { useApiClient } from '../api/api-context';
import { pingQuery } from '../api/connection-query';
import { REQUIRED_SCOPES } from '../api/required-scopes';
import { bootSession, VIEWER_REASON } from './session';
import { readKeptMap, writeKept } from '../api/local-store';
import { Listeners } from '../client/listeners';

/** Whether the key can change listings, and if not why (scope, viewer, test key on prod). */
export interface WriteAccess {
  canWrite: boolean;
  reason: string | null;
  /** False while the key's facts (`/ping`) are still coming: `canWrite` is then a hope. */
  known: boolean;
}

/** The id of the one notice that explains a read-only key (disabled actions point at it). */
export const READ_ONLY_NOTICE_ID = 'read-only-notice';

const STORAGE_KEY = 'slabdesk.read-only-keys.v1';
const listeners = new Listeners();

const readOnlyKeys = () => readKeptMap<string>(STORAGE_KEY);

const TEST_MODE_READ_ONLY =
  'Test-mode keys are read-only on this deployment (the API answered test_mode_forbidden).';

/** The seller-state 403s (spec, Errors): the account cannot transact, whatever the form says. */
const SELLER_STATE_CODES = new Set([
  'seller_not_approved',
  'seller_frozen',
  'seller_banned',
  'seller_not_found',
  'seller_not_eligible',
  'seller_paused',
]);

/** Why a refused write is not the form's fault (it then turns writes off), or null. */
export function refusalReason(error: unknown): string | null {
  if (!isApiError(error) || error.status !== 403) return null;
  if (error.code === 'test_mode_forbidden') return TEST_MODE_READ_ONLY;
  if (error.code === 'insufficient_scope') {
    return 'This key cannot change listings: the API answered insufficient_scope.';
  }
  if (error.code === 'role_forbidden') {
    return 'Your role on this dashboard cannot change listings (the server answered role_forbidden).';
  }
  if (SELLER_STATE_CODES.has(error.code)) {
    return `The seller account cannot change listings right now (the API answered ${error.code}).`;
  }
  return null;
}

/** A refusal that may lift by itself turns writes off for this visit only. */
let visitReason: string | null = null;

/** Learns from a failed write: `test_mode_forbidden` for good; others for this visit. */
export function noteWriteError(error: unknown, keyId: string | undefined): void {
  const reason = refusalReason(error);
  if (!reason) return;
  if (keyId && isApiError(error) && error.code === 'test_mode_forbidden') {
    // Remembered for good, and every page told.
    const keys = readOnlyKeys();
    if (keys[keyId] === reason) return;
    keys[keyId] = reason;
    writeKept(STORAGE_KEY, keys); // refused: the pages still learn it for this visit below
    snapshot = JSON.stringify(keys);
    listeners.tell();
    return;
  }
  if (visitReason === reason) return;
  visitReason = reason;
  listeners.tell();
}

/** Forgets this visit's refusal (tests; a fresh visit starts without one). */
export function forgetVisitRefusal(): void {
  visitReason = null;
  listeners.tell();
}

let snapshot = JSON.stringify(readOnlyKeys());

export function useWriteAccess(): WriteAccess {
  const client = useApiClient();
  const ping = useQuery(pingQuery(client));
  const remembered = useSyncExternalStore(
    listeners.subscribe,
    () => snapshot,
    () => snapshot,
  );
  const refusedThisVisit = useSyncExternalStore(
    listeners.subscribe,
    () => visitReason,
    () => visitReason,
  );
  // A viewer's session: the server refuses every write whatever the key may do.
  if (bootSession()?.role === 'viewer')
    return { canWrite: false, reason: VIEWER_REASON, known: true };
  if (refusedThisVisit) return { canWrite: false, reason: refusedThisVisit, known: true };
  if (!ping.data) return { canWrite: true, reason: null, known: false };
  const scopes = ping.data.scopes;
  // Scopes not shown by the ping: the API answers each write for itself (see the refusals above).
  if (scopes === undefined) return { canWrite: true, reason: null, known: false };
  if (!scopes.includes(REQUIRED_SCOPES.writeListings)) {
    return {
      canWrite: false,
      reason: `This key cannot change listings: it lacks the ${REQUIRED_SCOPES.writeListings} scope.`,
      known: true,
    };
  }
  const keyId = ping.data.key_id;
  const learned =
    keyId === undefined ? undefined : (JSON.parse(remembered) as Record<string, string>)[keyId];
  return learned
    ? { canWrite: false, reason: learned, known: true }
    : { canWrite: true, reason: null, known: true };
}
