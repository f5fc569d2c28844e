import type Database from 'better-sqlite3';

/** One step of a store's schema: SQL, or a function for what SQL alone cannot say. */
export type Migration = string | ((db: Database.Database) => void);

/** Adds each column the table lacks (older files may have some from the code of their day). */
export function addColumns(table: string, columns: readonly string[]): Migration {
  return (db) => {
    const known = new Set(
      db
        .prepare<[string], { name: string }>('SELECT name FROM pragma_table_info(?)')
        .all(table)
        .map((column) => column.name),
    );
    for (const column of columns) {
      const name = column.split(' ')[0]!;
      if (!known.has(name)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column}`);
    }
  };
}

/** Applies pending steps, each in one immediate transaction with its version, once per file. */
export function migrate(
  db: Database.Database,
  store: string,
  migrations: readonly Migration[],
  adopt?: (db: Database.Database) => number,
): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_versions (store TEXT PRIMARY KEY, version INTEGER NOT NULL)',
  );
  const read = db.prepare<[string], { version: number }>(
    'SELECT version FROM schema_versions WHERE store = ?',
  );
  const write = db.prepare<[string, number]>(
    `INSERT INTO schema_versions (store, version) VALUES (?, ?)
       ON CONFLICT (store) DO UPDATE SET version = excluded.version`,
  );
  const step = db.transaction((): boolean => {
    let version = read.get(store)?.version;
    if (version === undefined) {
      version = adopt?.(db) ?? 0;
      write.run(store, version);
    }
    const next = migrations[version];
    if (next === undefined) return false;
    if (typeof next === 'string') db.exec(next);
    else next(db);
    write.run(store, version + 1);
    return true;
  });
  while (step.immediate()) {
    // One step a transaction, until none is left.
  }
}
