import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';

/**
 * The stores hold password hashes, sessions and what sellers did: readable by their owner only,
 * whatever the umask. Modes are set by chmod, which the umask does not touch.
 */
const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

/** SQLite's companions of a database in WAL mode. */
const companions = (path: string) => [path, `${path}-wal`, `${path}-shm`, `${path}-journal`];

/** Makes the folder (owner only, when made here) and the empty file (owner only), before SQLite opens it. */
export function preparePrivateDatabase(path: string): void {
  if (path === ':memory:') return;
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
  if (path === ':memory:') return;
  for (const file of companions(path)) if (existsSync(file)) chmodSync(file, FILE_MODE);
}

/**
 * A folder only this user may read (`0700`): the stores in it hold password hashes, sessions and
 * webhook secrets, whatever mode SQLite gives their files.
 */
export function privateFolder(path: string): void {
  if (path === '' || path === '.') return;
  mkdirSync(path, { recursive: true, mode: 0o700 });
  chmodSync(path, 0o700);
}

/**
 * A store's database, owner only (see preparePrivateDatabase), in WAL mode on disk: readers do not
 * wait on the one writer. Every server store opens its file this way.
 */
export function openPrivateDatabase(path: string): Database.Database {
  preparePrivateDatabase(path);
  const db = new Database(path);
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  return db;
}
