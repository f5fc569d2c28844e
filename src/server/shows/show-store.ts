import type Database from 'better-sqlite3';
import { SqliteStore } from '../sqlite-store';
import type { KeptTradeIn, LedgerEntry, Show, ShowSale } from '../../shared/show-ledger';

// The show ledger on disk (SQLite, WAL): every SQL statement of the ledger is in this module.
export type { KeptTradeIn, LedgerEntry, Show, ShowSale };
/** Recorded now, the one already under its key (a retried sync), or the listing's earlier sale. */
export type Recorded =
  { entry: LedgerEntry; created: boolean; soldBefore?: undefined } | { soldBefore: ShowSale };

// Rows are read as one JSON object each, shaped as the answers send them (SQLite's json_object);
// a case column that is not an array of ids reads as none.
const SHOW = `SELECT json_object('key', key, 'name', name, 'date', date, 'createdAt', created_at,
    'createdBy', created_by, 'caseListingIds', (SELECT json_group_array(value)
      FROM json_each(CASE WHEN NOT json_valid(case_ids) THEN '[]'
        WHEN json_type(case_ids) = 'array' THEN case_ids ELSE '[]' END) WHERE type = 'text'))
  FROM shows`;
const ENTRY = `SELECT json_object('key', key, 'showKey', show_key, 'soldAt', sold_at,
    'recordedAt', recorded_at, 'soldBy', sold_by, 'listingId', listing_id, 'title', title,
    'certNumber', cert_number, 'grader', grader, 'priceCents', price_cents,
    'discountCents', discount_cents, 'costCents', cost_cents, 'offMarket', off_market,
    'note', note,
    'tenders', json((SELECT json_group_array(json_object('kind', kind, 'amountCents',
        amount_cents, 'note', note, 'trade', CASE WHEN kind = 'trade' AND trade_title IS NOT NULL
          THEN json_object('title', trade_title, 'certNumber', trade_cert, 'grader', trade_grader)
        END) ORDER BY position) FROM show_tenders WHERE entry_key = e.key)),
    'soldOnline', json(iif(sold_online, 'true', 'false')),
    'voided', CASE WHEN voided_at IS NOT NULL THEN json_object('at', voided_at,
      'by', coalesce(voided_by, ''), 'reason', void_reason) END)
  FROM show_entries e`;

const parsed = <T>(text: string) => JSON.parse(text) as T;

/** The ledger as first kept (`show_schema` 0): a sale's cash and one traded card on its own row. */
const VERSION_0 = `CREATE TABLE IF NOT EXISTS shows (
    key TEXT PRIMARY KEY, name TEXT NOT NULL, date TEXT NOT NULL, created_at TEXT NOT NULL,
    created_by TEXT NOT NULL, case_ids TEXT NOT NULL DEFAULT '[]'
  );
  CREATE TABLE IF NOT EXISTS show_entries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL UNIQUE,
    show_key TEXT NOT NULL REFERENCES shows (key), sold_at TEXT NOT NULL,
    recorded_at TEXT NOT NULL, sold_by TEXT NOT NULL, listing_id TEXT NOT NULL,
    title TEXT NOT NULL, cert_number TEXT, grader TEXT, price_cents INTEGER NOT NULL,
    cash_cents INTEGER NOT NULL, trade_title TEXT, trade_cert TEXT, trade_grader TEXT,
    trade_value_cents INTEGER, cost_cents INTEGER, sold_online INTEGER NOT NULL,
    off_market TEXT NOT NULL, note TEXT
  );
  CREATE INDEX IF NOT EXISTS show_entries_by_show ON show_entries (show_key, seq);
  CREATE INDEX IF NOT EXISTS show_entries_by_listing ON show_entries (listing_id, seq);`;

/** Then (`show_schema` 1): tenders as rows (old cash and trades become them), discount, undo. */
const VERSION_1 = `CREATE TABLE show_tenders (
    entry_key TEXT NOT NULL REFERENCES show_entries (key), position INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('cash', 'card', 'other', 'trade')),
    amount_cents INTEGER NOT NULL, note TEXT, trade_title TEXT, trade_cert TEXT,
    trade_grader TEXT, PRIMARY KEY (entry_key, position)
  );
  CREATE INDEX show_tenders_by_kind ON show_tenders (kind);
  INSERT INTO show_tenders (entry_key, position, kind, amount_cents, trade_title, trade_cert,
      trade_grader)
    SELECT key, 0, 'trade', trade_value_cents, trade_title, trade_cert, trade_grader
    FROM show_entries WHERE trade_title IS NOT NULL AND trade_value_cents IS NOT NULL;
  INSERT INTO show_tenders (entry_key, position, kind, amount_cents)
    SELECT key, 1, 'cash', cash_cents FROM show_entries
    WHERE cash_cents > 0 OR trade_title IS NULL OR trade_value_cents IS NULL;
  ALTER TABLE show_entries ADD COLUMN discount_cents INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE show_entries ADD COLUMN voided_at TEXT;
  ALTER TABLE show_entries ADD COLUMN voided_by TEXT;
  ALTER TABLE show_entries ADD COLUMN void_reason TEXT;
  ALTER TABLE show_entries DROP COLUMN cash_cents;
  ALTER TABLE show_entries DROP COLUMN trade_title;
  ALTER TABLE show_entries DROP COLUMN trade_cert;
  ALTER TABLE show_entries DROP COLUMN trade_grader;
  ALTER TABLE show_entries DROP COLUMN trade_value_cents;`;

/** A ledger that counted its steps in `show_schema` (before `schema_versions`): carried over. */
function adoptShowSchema(db: Database.Database): number {
  const kept = db.prepare(
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'show_schema'",
  );
  if (!kept.get()) return 0;
  const version = db.prepare('SELECT version FROM show_schema').pluck().get() as number | undefined;
  db.exec('DROP TABLE show_schema');
  return version === undefined ? 0 : version + 1;
}

export class ShowStore extends SqliteStore {
  constructor(path: string) {
    super(path, 'shows', [VERSION_0, VERSION_1], { adopt: adoptShowSchema });
  }

  /** Creates the show, or returns the one already made under this key (a retried sync). */
  createShow(show: Omit<Show, 'caseListingIds'>): { show: Show; created: boolean } {
    const sql = `INSERT INTO shows (key, name, date, created_at, created_by)
      VALUES (@key, @name, @date, @createdAt, @createdBy) ON CONFLICT (key) DO NOTHING`;
    const created = this.sql(sql).run(show).changes > 0;
    return { show: this.show(show.key)!, created };
  }

  show(key: string): Show | undefined {
    const row = this.sql(`${SHOW} WHERE key = ?`).pluck().get(key) as string | undefined;
    return row === undefined ? undefined : parsed<Show>(row);
  }

  /** Every show, newest date first. */
  shows(limit: number): Show[] {
    const sql = `${SHOW} ORDER BY date DESC, created_at DESC LIMIT ?`;
    return (this.sql(sql).pluck().all(limit) as string[]).map(parsed<Show>);
  }

  /** Marks the show's case; false when there is no such show. */
  setCase(key: string, listingIds: readonly string[]): boolean {
    const ids = JSON.stringify([...new Set(listingIds)]);
    return this.sql('UPDATE shows SET case_ids = ? WHERE key = ?').run(ids, key).changes > 0;
  }

  /**
   * Records the entry, or answers the first one under its key (a retry); a listing sold and not
   * undone is refused. One immediate transaction, so two phones or servers cannot both sell it.
   */
  record(entry: Omit<LedgerEntry, 'recordedAt' | 'voided'>, recordedAt: string): Recorded {
    const insert = this.db.transaction((): Recorded => {
      const known = this.entry(entry.key);
      if (known) return { entry: known, created: false };
      const soldBefore = this.saleOf(entry.listingId);
      if (soldBefore) return { soldBefore };
      this.sql(
        `INSERT INTO show_entries (key, show_key, sold_at, recorded_at, sold_by, listing_id,
             title, cert_number, grader, price_cents, discount_cents, cost_cents, sold_online,
             off_market, note)
           VALUES (@key, @showKey, @soldAt, @recordedAt, @soldBy, @listingId, @title, @certNumber,
             @grader, @priceCents, @discountCents, @costCents, @soldOnline, @offMarket, @note)`,
      ).run({ ...entry, recordedAt, soldOnline: entry.soldOnline ? 1 : 0 });
      const tender = this.sql(
        `INSERT INTO show_tenders (entry_key, position, kind, amount_cents, note, trade_title,
           trade_cert, trade_grader) VALUES (@entryKey, @position, @kind, @amountCents, @note,
           @title, @certNumber, @grader)`,
      );
      entry.tenders.forEach((paid, position) => {
        const trade = paid.trade ?? { title: null, certNumber: null, grader: null };
        tender.run({ ...paid, ...trade, entryKey: entry.key, position });
      });
      return { entry: this.entry(entry.key)!, created: true };
    });
    return insert.immediate();
  }

  /** Undoes a sale of the show (kept, out of the totals); a retry answers it as it stands. */
  voidEntry(
    showKey: string,
    key: string,
    done: NonNullable<LedgerEntry['voided']>,
  ): { entry: LedgerEntry; changed: boolean } | undefined {
    const undo = this.db.transaction(() => {
      const entry = this.entry(key);
      if (!entry || entry.showKey !== showKey) return undefined;
      if (entry.voided) return { entry, changed: false };
      this.sql(
        'UPDATE show_entries SET voided_at = ?, voided_by = ?, void_reason = ? WHERE key = ?',
      ).run(done.at, done.by, done.reason, key);
      return { entry: this.entry(key)!, changed: true };
    });
    return undo.immediate();
  }

  /** The entries matching `where`, each with its tenders in the order paid. */
  private read(where: string, ...params: unknown[]): LedgerEntry[] {
    const rows = this.sql(`${ENTRY} WHERE ${where}`)
      .pluck()
      .all(...params) as string[];
    return rows.map(parsed<LedgerEntry>);
  }

  /** The listing's standing sale at a show (not undone; the first, should an old ledger hold 2). */
  saleOf(listingId: string): ShowSale | undefined {
    const [sale] = this.read(
      'listing_id = ? AND voided_at IS NULL ORDER BY seq LIMIT 1',
      listingId,
    );
    const show = sale && this.show(sale.showKey);
    return show && { ...sale!, showName: show.name, showDate: show.date };
  }

  /** The keys of the listing's sales that were undone (a phone forgets its own record of them). */
  voidedKeysOf(listingId: string): string[] {
    const sql = `SELECT key FROM show_entries WHERE listing_id = ? AND voided_at IS NOT NULL
      ORDER BY seq LIMIT 100`;
    return this.sql(sql).pluck().all(listingId) as string[];
  }

  entry(key: string): LedgerEntry | undefined {
    return this.read('key = ?', key)[0];
  }

  /** A show's entries in the order they were recorded. */
  entries(showKey: string): LedgerEntry[] {
    return this.read('show_key = ? ORDER BY seq', showKey);
  }

  /** The cards taken in trade, newest first (New listing offers their cost), not of undone sales. */
  tradeIns(limit: number): KeptTradeIn[] {
    const sql = `SELECT t.trade_title AS title, t.trade_cert AS certNumber,
        t.trade_grader AS grader, t.amount_cents AS valueCents, t.entry_key AS entryKey,
        e.show_key AS showKey, s.name AS showName, e.sold_at AS soldAt
      FROM show_tenders t JOIN show_entries e ON e.key = t.entry_key JOIN shows s ON s.key = e.show_key
      WHERE t.kind = 'trade' AND t.trade_title IS NOT NULL AND e.voided_at IS NULL
      ORDER BY e.seq DESC, t.position LIMIT ?`;
    return this.sql(sql).all(limit) as KeptTradeIn[];
  }
}
