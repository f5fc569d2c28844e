import { chmodSync, mkdirSync } from 'node:fs';

/** A folder only this user may read (`0700`): its stores hold password hashes, sessions, secrets. */
export function privateFolder(path: string): void {
  if (path === '' || path === '.') return;
  mkdirSync(path, { recursive: true, mode: 0o700 });
  chmodSync(path, 0o700);
}
