import type Database from 'better-sqlite3';
import type { Migration } from '../shared/sqlite/migrate';
import { openStore, type OpenOptions, type StoreFile } from '../shared/sqlite/open-store';

/** A store in one SQLite file: opened and migrated once, each statement prepared once by its text. */
export abstract class SqliteStore {
  protected readonly db: Database.Database;
  private readonly file: StoreFile;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(path: string, name: string, migrations: readonly Migration[], options?: OpenOptions) {
    this.file = openStore(path, name, migrations, options);
    this.db = this.file.db;
  }

  protected sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  close(): void {
    this.file.close();
  }
}
