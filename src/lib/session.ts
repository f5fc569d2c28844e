import { useSyncExternalStore } from 'react';
import { Listeners } from '../client/listeners';

/** The signed-in person as written into the page; no metas means sign-in is off (owner). */
export type Role = 'owner' | 'editor' | 'viewer';

export interface BootSession {
  name: string;
  role: Role;
  csrf: string;
  /** The session's tag (not its id): which session a queued write was made in. */
  session: string;
}

const ROLES: readonly string[] = ['owner', 'editor', 'viewer'];

function meta(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  return document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? undefined;
}

/** The session of the page's boot facts, or null when sign-in is off. Read each time: cheap. */
export function bootSession(): BootSession | null {
  const name = meta('slabdesk-user');
  const role = meta('slabdesk-role');
  const csrf = meta('slabdesk-csrf');
  if (!name || !role || !ROLES.includes(role)) return null;
  return { name, role: role as Role, csrf: csrf ?? '', session: meta('slabdesk-session') ?? '' };
}

/** The boot facts' names that change with the session (read anew after signing in again). */
export const SESSION_FACTS = [
  'slabdesk-user',
  'slabdesk-role',
  'slabdesk-csrf',
  'slabdesk-session',
] as const;

/** How long kept data may go without seeing its server before it is cleared (the server's setting). */
export const DEFAULT_KEEP_DAYS = 7;
export function keepDays(): number {
  const days = Number(meta('slabdesk-keep-days'));
  return Number.isFinite(days) && days > 0 ? days : DEFAULT_KEEP_DAYS;
}

/** When this browser last heard from its server (local storage; cleared with the account). */
const SERVER_SEEN = 'slabdesk-server-seen';

/** The server answered: the kept data has seen its server now. */
export function noteServerSeen(now = Date.now()): void {
  try {
    localStorage.setItem(SERVER_SEEN, String(now));
  } catch {
    // Storage refused: nothing is kept to go stale either.
  }
}

/** When the server last answered here, or undefined when never noted. */
export function serverSeenAt(): number | undefined {
  try {
    const at = Number(localStorage.getItem(SERVER_SEEN));
    return Number.isFinite(at) && at > 0 ? at : undefined;
  } catch {
    return undefined;
  }
}

/** The header every API write carries with a session: the server's CSRF check. */
export const CSRF_HEADER = 'X-Slabdesk-Csrf';

/** Headers for one request of the page's clients: the CSRF token on every write. */
export function sessionHeaders(method: string): Record<string, string> {
  if (method === 'GET' || method === 'HEAD') return {};
  const csrf = bootSession()?.csrf;
  return csrf ? { [CSRF_HEADER]: csrf } : {};
}

export const VIEWER_REASON = 'You are signed in as a viewer: you can look but not change anything.';

/** What the API answers when the session ended (signed out elsewhere, or expired). */
export const SIGN_IN_REQUIRED = 'sign_in_required';

let ended = false;
const listeners = new Listeners();

/** Marks the session ended (an API call answered 401 sign_in_required): every page is told. */
export function noteSessionEnded(): void {
  if (ended) return;
  ended = true;
  listeners.tell();
}

/** Calls `listener` each time the session is marked ended; returns the way to stop. */
export function onSessionEnded(listener: () => void): () => void {
  return listeners.subscribe(() => {
    if (ended) listener();
  });
}

/** Back to a live session (signed in again; and the tests). */
export function resetSessionEnded(): void {
  ended = false;
  listeners.tell();
}

export function useSessionEnded(): boolean {
  return useSyncExternalStore(
    listeners.subscribe,
    () => ended,
    () => ended,
  );
}
