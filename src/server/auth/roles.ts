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

/**
 * Why `role` may not make this call, or null: an owner does all, an editor every write but a
 * deactivation (DELETE), a viewer no write.
 */
export function roleRefusal(role: Role, method: string): string | null {
  if (!isWrite(method)) return null;
  if (role === 'viewer') return 'Your role (viewer) can only read.';
  if (role === 'editor' && method === 'DELETE') {
    return 'Your role (editor) cannot deactivate listings; ask an owner.';
  }
  return null;
}
