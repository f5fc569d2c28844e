// Node-only (better-sqlite3): the browser bundle never imports src/shared/sqlite (eslint NODE_ONLY).
import Database from 'better-sqlite3';
import { resolve } from 'node:path';
import { migrate, type Migration } from './migrate';
import { preparePrivateDatabase, tightenDatabaseFiles } from './private-database';

/** A store's hold on its file's one connection: `close` lets go of it (once). */
export interface StoreFile {
  readonly db: Database.Database;
  close(): void;
}

export interface OpenOptions {
  /** `FULL` syncs each commit; `NORMAL` survives a process crash without an fsync per commit. */
  readonly synchronous?: 'FULL' | 'NORMAL';
  /** The version a file kept before `schema_versions`, read once when it has no row (else 0). */
  readonly adopt?: (db: Database.Database) => number;
}

interface Shared {
  readonly db: Database.Database;
  readonly synchronous: 'FULL' | 'NORMAL';
  holders: number;
}

/** One connection per file in this process, shared by the stores kept in it. */
const open = new Map<string, Shared>();

function connect(path: string, synchronous: 'FULL' | 'NORMAL'): Database.Database {
  const memory = path === ':memory:';
  if (!memory) preparePrivateDatabase(path);
  const db = new Database(path);
  // WAL on disk: readers do not wait on the one writer.
  if (!memory) db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

/** Opens a store (owner only, WAL, FKs) and migrates it; stores of one file share a connection. */
export function openStore(
  path: string,
  store: string,
  migrations: readonly Migration[],
  options: OpenOptions = {},
): StoreFile {
  const synchronous = options.synchronous ?? 'FULL';
  const key = path === ':memory:' ? undefined : resolve(path);
  let shared = key === undefined ? undefined : open.get(key);
  if (shared && shared.synchronous !== synchronous) {
    throw new Error(`${path} is open with synchronous = ${shared.synchronous}, not ${synchronous}`);
  }
  if (!shared) {
    shared = { db: connect(path, synchronous), synchronous, holders: 0 };
    if (key !== undefined) open.set(key, shared);
  }
  const held = shared;
  try {
    migrate(held.db, store, migrations, options.adopt);
  } catch (error) {
    if (held.holders === 0) release(key, held);
    throw error;
  }
  if (key !== undefined) tightenDatabaseFiles(path);
  held.holders += 1;
  let closed = false;
  return {
    db: held.db,
    close() {
      if (closed) return;
      closed = true;
      held.holders -= 1;
      if (held.holders === 0) release(key, held);
    },
  };
}

function release(key: string | undefined, shared: Shared): void {
  if (key !== undefined && open.get(key) === shared) open.delete(key);
  if (shared.db.open) shared.db.close();
}
