import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { isApiError } from '../client';
import { useApiClient } from './api-context';
import { pingQuery } from './connection-query';
import { REQUIRED_SCOPES } from './required-scopes';
import { bootSession, VIEWER_REASON } from './session';

/**
 * Whether the key behind the dashboard can change listings, and if not why: a key without the
 * `write_listings` scope, or a test key on a production deployment (test keys are read-only
 * there), or a person signed in as a viewer. The second is not in `/ping`: it is learned from the first `test_mode_forbidden` and
 * remembered for that key in this browser.
 */
export interface WriteAccess {
  canWrite: boolean;
  reason: string | null;
}

/** The id of the one notice that explains a read-only key (disabled actions point at it). */
export const READ_ONLY_NOTICE_ID = 'read-only-notice';

const STORAGE_KEY = 'slabdesk.read-only-keys.v1';
const listeners = new Set<() => void>();

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

function readOnlyKeys(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(STORAGE_KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** Remembers that a key's writes are refused for good, and tells every page. */
export function rememberReadOnlyKey(keyId: string, reason: string): void {
  const keys = readOnlyKeys();
  if (keys[keyId] === reason) return;
  keys[keyId] = reason;
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify(keys));
  } catch {
    // Storage refused: the pages still learn it for this visit below.
  }
  snapshot = JSON.stringify(keys);
  for (const listener of listeners) listener();
}

const TEST_MODE_READ_ONLY =
  'Test-mode keys are read-only on this deployment (the API answered test_mode_forbidden).';

/** Learns from a failed write: a `test_mode_forbidden` makes the key read-only here. */
export function noteWriteError(error: unknown, keyId: string | undefined): void {
  if (keyId && isApiError(error) && error.code === 'test_mode_forbidden') {
    rememberReadOnlyKey(keyId, TEST_MODE_READ_ONLY);
  }
}

let snapshot = JSON.stringify(readOnlyKeys());
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function useWriteAccess(): WriteAccess {
  const client = useApiClient();
  const ping = useQuery(pingQuery(client));
  const remembered = useSyncExternalStore(
    subscribe,
    () => snapshot,
    () => snapshot,
  );
  // A viewer's session: the server refuses every write whatever the key may do.
  if (bootSession()?.role === 'viewer') return { canWrite: false, reason: VIEWER_REASON };
  if (!ping.data) return { canWrite: true, reason: null };
  const scopes = ping.data.scopes;
  if (!scopes.includes(REQUIRED_SCOPES.writeListings)) {
    return {
      canWrite: false,
      reason: `This key cannot change listings: it lacks the ${REQUIRED_SCOPES.writeListings} scope.`,
    };
  }
  const learned = (JSON.parse(remembered) as Record<string, string>)[ping.data.key_id];
  return learned ? { canWrite: false, reason: learned } : { canWrite: true, reason: null };
}
