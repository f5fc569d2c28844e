import { safeDecode } from '../../shared/safe-decode';
import { setsInactiveStatus } from './status-in-body';

/** Who may do what: the three roles (each route states which it needs: route-access.ts). */
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

/** A listing's paths (and their `products` aliases), after decoding, in any letter case. */
export function isListingPath(pathname: string): boolean {
  const decoded = (safeDecode(pathname) ?? pathname).toLowerCase();
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
