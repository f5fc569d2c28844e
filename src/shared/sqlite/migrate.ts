import type Database from 'better-sqlite3';

/** One step of a store's schema: SQL, or a function for what SQL alone cannot say. */
export type Migration = string | ((db: Database.Database) => void);

/** What a store keeps in its file: its name in `schema_versions`, and its steps in order. */
export interface StoreSchema {
  /** The store's row in `schema_versions` (several stores may share one file). */
  readonly name: string;
  /** Version n is the first n steps applied. A step that shipped is never edited: add the next. */
  readonly migrations: readonly Migration[];
  /**
   * The version a file kept before `schema_versions` stands at, read once when the store has no
   * row yet (the sandbox's `user_version`, the show ledger's `show_schema`); 0 when not given.
   */
  readonly adopt?: (db: Database.Database) => number;
}

/**
 * Adds each column the table lacks. A step of this kind runs once, by its version; a file kept
 * before versions were counted may have some of the columns already, from the code of its day.
 */
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

/**
 * Applies the store's steps not yet applied, each in one immediate transaction with its version:
 * a step that fails rolls back and leaves the version where it was. Each transaction reads the
 * version again, so two processes opening one file (the server, `npm run users`) apply a step once.
 */
export function migrate(db: Database.Database, schema: StoreSchema): void {
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
    let version = read.get(schema.name)?.version;
    if (version === undefined) {
      version = schema.adopt?.(db) ?? 0;
      write.run(schema.name, version);
    }
    const next = schema.migrations[version];
    if (next === undefined) return false;
    if (typeof next === 'string') db.exec(next);
    else next(db);
    write.run(schema.name, version + 1);
    return true;
  });
  while (step.immediate()) {
    // One step a transaction, until none is left.
  }
}
