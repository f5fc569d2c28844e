import { useSyncExternalStore } from 'react';

/**
 * The signed-in person as the server wrote it into the page, and whether the session ended. No
 * metas: sign-in is off, and the page acts as an owner's.
 */
export type Role = 'owner' | 'editor' | 'viewer';

export interface BootSession {
  name: string;
  role: Role;
  csrf: string;
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
  return { name, role: role as Role, csrf: csrf ?? '' };
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
const listeners = new Set<() => void>();

/** Marks the session ended (an API call answered 401 sign_in_required): every page is told. */
export function noteSessionEnded(): void {
  if (ended) return;
  ended = true;
  for (const listener of listeners) listener();
}

/** Back to a live session (signed in again; and the tests). */
export function resetSessionEnded(): void {
  ended = false;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function useSessionEnded(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => ended,
    () => ended,
  );
}
