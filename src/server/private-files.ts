import { chmodSync, mkdirSync } from 'node:fs';

/**
 * A folder only this user may read (`0700`): the stores in it hold password hashes, sessions and
 * webhook secrets, whatever mode SQLite gives their files (each file owner only: shared/sqlite).
 */
export function privateFolder(path: string): void {
  if (path === '' || path === '.') return;
  mkdirSync(path, { recursive: true, mode: 0o700 });
  chmodSync(path, 0o700);
}
