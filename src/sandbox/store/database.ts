import type Database from 'better-sqlite3';
import type { StoreSchema } from '../../shared/sqlite/migrate';
import { openStore, type StoreFile } from '../../shared/sqlite/open-store';
import { migrations } from './migrations';

export type Db = Database.Database;

/** The sandbox's schema; a store kept before `schema_versions` counted it in `user_version`. */
const SANDBOX_SCHEMA: StoreSchema = {
  name: 'sandbox',
  migrations,
  adopt: (db) => db.pragma('user_version', { simple: true }) as number,
};

/**
 * Opens (creating if needed) the sandbox's store, owner only (it holds the webhook signing
 * secrets), in WAL mode, and applies pending migrations.
 */
export function openDatabase(file: string): StoreFile {
  return openStore(file, SANDBOX_SCHEMA, { synchronous: 'NORMAL' });
}
