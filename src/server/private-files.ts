import { chmodSync, existsSync, mkdirSync } from 'node:fs';

/**
 * A folder only this user may read (`0700`): the stores in it hold password hashes, sessions and
 * webhook secrets, whatever mode SQLite gives their files.
 */
export function privateFolder(path: string): void {
  if (path === '' || path === '.') return;
  mkdirSync(path, { recursive: true, mode: 0o700 });
  chmodSync(path, 0o700);
}

/** A store's file and its SQLite companions, readable by this user only (`0600`). */
export function privateFiles(path: string): void {
  if (path === ':memory:') return;
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
    if (existsSync(file)) chmodSync(file, 0o600);
  }
}
