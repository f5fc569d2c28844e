// Node-only (node:fs): the browser bundle never imports src/shared/sqlite (eslint NODE_ONLY).
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Stores hold hashes, sessions and secrets: owner only whatever the umask (chmod). */
const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

/** SQLite's companions of a database in WAL mode. */
const companions = (path: string) => [path, `${path}-wal`, `${path}-shm`, `${path}-journal`];

/** Makes the folder (owner only, when made here) and the empty file (owner only), before SQLite opens it. */
export function preparePrivateDatabase(path: string): void {
  const made = mkdirSync(dirname(path), { recursive: true, mode: FOLDER_MODE });
  // Every folder made here, from the first one made down to the store's own.
  if (made !== undefined) {
    const first = resolve(made);
    for (let folder = resolve(dirname(path)); folder.startsWith(first); folder = dirname(folder)) {
      chmodSync(folder, FOLDER_MODE);
      if (folder === first) break;
    }
  }
  // SQLite gives its -wal and -shm files the mode of the database file.
  closeSync(openSync(path, 'a', FILE_MODE));
  chmodSync(path, FILE_MODE);
}

/** Owner only for the database and whichever of its companions exist (older files too). */
export function tightenDatabaseFiles(path: string): void {
  for (const file of companions(path)) if (existsSync(file)) chmodSync(file, FILE_MODE);
}
