import { SqliteStore } from '../sqlite-store';
import { VIEW_LIMITS } from '../../shared/saved-views';

/** Each account's saved views of its tables (name and search params), every SQL of them here. */
type SavedViewRow = { name: string; search: string; savedAt: string };

export class ViewStore extends SqliteStore {
  constructor(path: string) {
    super(path, 'views', [
      `CREATE TABLE IF NOT EXISTS saved_views (
         account TEXT NOT NULL, table_name TEXT NOT NULL, name TEXT NOT NULL,
         search TEXT NOT NULL, saved_at TEXT NOT NULL, PRIMARY KEY (account, table_name, name)
       );`,
    ]);
  }

  /** An account's views of a table, oldest first (the order they were first saved). */
  list(account: string, table: string): SavedViewRow[] {
    const sql = `SELECT name, search, saved_at AS savedAt FROM saved_views
      WHERE account = ? AND table_name = ? ORDER BY rowid`;
    return this.sql(sql).all(account, table) as SavedViewRow[];
  }

  /** Saves (or replaces, by name) a view; false when the table has its most and this is new. */
  save(account: string, table: string, view: SavedViewRow): boolean {
    // One statement: the count and the write cannot be split by another writer.
    const sql = `INSERT INTO saved_views (account, table_name, name, search, saved_at)
      SELECT @account, @table, @name, @search, @savedAt WHERE (SELECT COUNT(*) FROM saved_views
        WHERE account = @account AND table_name = @table AND name <> @name) < @most
      ON CONFLICT (account, table_name, name) DO UPDATE SET
        search = excluded.search, saved_at = excluded.saved_at`;
    const args = { account, table, ...view, most: VIEW_LIMITS.perTable };
    return this.sql(sql).run(args).changes === 1;
  }

  /** Deletes a view by name; whether there was one. */
  remove(account: string, table: string, name: string): boolean {
    const sql = 'DELETE FROM saved_views WHERE account = ? AND table_name = ? AND name = ?';
    return this.sql(sql).run(account, table, name).changes > 0;
  }
}
