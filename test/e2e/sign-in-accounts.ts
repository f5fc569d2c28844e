import type { Role } from '../../src/server/auth/roles';

/**
 * The accounts of the browser suite's sign-in server (made in global setup): an owner, an
 * editor, a viewer, and one that only ever takes a wrong password (sign-in attempts are limited
 * per account, so the others stay untouched).
 */
export const E2E_ACCOUNTS = {
  owner: { name: 'olive', role: 'owner', password: 'olive-owner-pass-2026' },
  editor: { name: 'eddie', role: 'editor', password: 'eddie-editor-pass-2026' },
  viewer: { name: 'vera', role: 'viewer', password: 'vera-viewer-pass-2026' },
  mistyped: { name: 'mia', role: 'editor', password: 'mia-editor-pass-2026' },
} as const satisfies Record<string, { name: string; role: Role; password: string }>;
