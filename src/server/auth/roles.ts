import { setsInactiveStatus } from './status-in-body';

/** Who may do what: the three roles, and which API writes each may make. */
export const ROLES = ['owner', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** The person behind a request, for the activity log; null when sign-in is off ("This computer"). */
export interface Actor {
  name: string;
  role: Role;
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

const isWrite = (method: string) => method !== 'GET' && method !== 'HEAD';

const EDITOR_CANNOT_DEACTIVATE = 'Your role (editor) cannot deactivate listings; ask an owner.';

/**
 * Why `role` may not make this call, or null: an owner does all, an editor every write but a
 * deactivation (DELETE; a status set by a body is checked by bodyRoleRefusal), a viewer no write.
 */
export function roleRefusal(role: Role, method: string): string | null {
  if (!isWrite(method)) return null;
  if (role === 'viewer') return 'Your role (viewer) can only read.';
  if (role === 'editor' && method === 'DELETE') return EDITOR_CANNOT_DEACTIVATE;
  return null;
}

/** A listing's paths (and their `products` aliases), after decoding, in any letter case. */
export function isListingPath(pathname: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname).toLowerCase();
  } catch {
    decoded = pathname.toLowerCase();
  }
  return /\/(listings|products)(\/|\.json|$)/.test(decoded);
}

/** Whether a write's body must be read to know if `role` may make it (see bodyRoleRefusal). */
export const bodyNeedsCheck = (role: Role, method: string, pathname: string): boolean =>
  role === 'editor' && isWrite(method) && method !== 'DELETE' && isListingPath(pathname);

/**
 * Why `role` may not send this body, or null: a listing write that sets a status other than
 * active takes the listing off sale, a deactivation as DELETE is.
 */
export function bodyRoleRefusal(
  role: Role,
  method: string,
  pathname: string,
  body: Buffer | string | undefined,
): string | null {
  if (!bodyNeedsCheck(role, method, pathname) || body === undefined) return null;
  return setsInactiveStatus(body) ? EDITOR_CANNOT_DEACTIVATE : null;
}
