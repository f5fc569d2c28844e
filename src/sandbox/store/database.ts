import type Database from 'better-sqlite3';
import { openStore, type StoreFile } from '../../shared/sqlite/open-store';
import { migrations } from './migrations';

export type Db = Database.Database;

/** Opens the sandbox's store, owner only (it holds webhook secrets), WAL, migrations applied. */
export function openDatabase(file: string): StoreFile {
  return openStore(file, 'sandbox', migrations, {
    synchronous: 'NORMAL',
    // A store kept before `schema_versions` counted its steps in `user_version`.
    adopt: (db) => db.pragma('user_version', { simple: true }) as number,
  });
}
