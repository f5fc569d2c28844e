import type { Db } from './database';

/** Small key/value settings that must survive a restart: clock offset, cursor secret, store epoch, faults. */
export function createMetaStore(db: Db) {
  const select = db.prepare(`SELECT value FROM meta WHERE key = ?`);
  const upsert = db.prepare(
    `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );
  return {
    get(key: string): string | undefined {
      return (select.get(key) as { value: string } | undefined)?.value;
    },
    set(key: string, value: string): void {
      upsert.run(key, value);
    },
  };
}

export type MetaStore = ReturnType<typeof createMetaStore>;
