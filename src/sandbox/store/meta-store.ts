import type { Db } from './database';
import { sqlOf } from './sql';

/** Small key/value settings that must survive a restart: clock offset, cursor secret, store epoch, faults. */
export function createMetaStore(db: Db) {
  const sql = sqlOf(db);
  const select = sql.one<{ value: string }, [key: string]>(`SELECT value FROM meta WHERE key = ?`);
  return {
    get: (key: string) => select(key)?.value,
    set: sql.run<[key: string, value: string]>(
      `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    ),
  };
}

export type MetaStore = ReturnType<typeof createMetaStore>;
