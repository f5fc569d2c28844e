import type Database from 'better-sqlite3';
import { openStore, type StoreFile } from '../../shared/sqlite/open-store';
import type { Tender, TenderKind, TradeCard } from '../../shared/show-tenders';

/** The show ledger on disk (SQLite, WAL): every SQL statement of the ledger is in this module. */

export interface Show {
  /** Made by the browser, so a show started offline keeps its name when it syncs. */
  key: string;
  name: string;
  /** YYYY-MM-DD. */
  date: string;
  createdAt: string;
  createdBy: string;
  /** The listings brought to the show (its case), in the order marked. */
  caseListingIds: string[];
}

/** A card taken in trade, as the cards offered a cost in New listing read it. */
export interface TradeIn extends TradeCard {
  /** The agreed value, in cents: the card's cost when it is listed later. */
  valueCents: number;
}

/** A sale undone by the seller: kept in the ledger, out of the totals, the listing free to sell. */
export interface SaleVoid {
  at: string;
  by: string;
  reason: string | null;
}

export interface LedgerEntry {
  /** Made by the browser when the sale was made: a retried sync records it once. */
  key: string;
  showKey: string;
  /** When the sale was made at the table (ISO, UTC), not when it synced. */
  soldAt: string;
  recordedAt: string;
  soldBy: string;
  listingId: string;
  title: string;
  certNumber: string | null;
  grader: string | null;
  /** What the buyer paid: the asking price less `discountCents`. */
  priceCents: number;
  discountCents: number;
  /** How it was paid, adding up to the price (one, or a split). */
  tenders: Tender[];
  /** The card's cost when sold, when known. */
  costCents: number | null;
  /** The card had sold online before the deactivation landed: settle with the buyer. */
  soldOnline: boolean;
  /** What became of the listing on the marketplace when the sale synced. */
  offMarket: 'deactivated' | 'sold_online' | 'not_taken_off';
  /** Why the listing was not taken off, in the seller's words, when it was not. */
  note: string | null;
  voided: SaleVoid | null;
}

export type NewLedgerEntry = Omit<LedgerEntry, 'recordedAt' | 'voided'>;

/** A listing's sale at a show, with the show it was sold at. */
export interface ShowSale extends LedgerEntry {
  showName: string;
  /** The show's day, YYYY-MM-DD. */
  showDate: string;
}

/**
 * What recording a sale came to: recorded now, the one already recorded under its key (a retried
 * sync), or refused because the listing was sold before (a slab is sold once, at any show, until
 * that sale is undone).
 */
export type Recorded =
  { entry: LedgerEntry; created: boolean; soldBefore?: undefined } | { soldBefore: ShowSale };

export interface KeptTradeIn extends TradeIn {
  entryKey: string;
  showKey: string;
  showName: string;
  soldAt: string;
}

interface ShowRow {
  key: string;
  name: string;
  date: string;
  created_at: string;
  created_by: string;
  case_ids: string;
}

interface EntryRow {
  key: string;
  show_key: string;
  sold_at: string;
  recorded_at: string;
  sold_by: string;
  listing_id: string;
  title: string;
  cert_number: string | null;
  grader: string | null;
  price_cents: number;
  discount_cents: number;
  cost_cents: number | null;
  sold_online: number;
  off_market: LedgerEntry['offMarket'];
  note: string | null;
  voided_at: string | null;
  voided_by: string | null;
  void_reason: string | null;
}

interface TenderRow {
  entry_key: string;
  position: number;
  kind: TenderKind;
  amount_cents: number;
  note: string | null;
  trade_title: string | null;
  trade_cert: string | null;
  trade_grader: string | null;
}

function idsOf(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((id) => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

const showOf = (row: ShowRow): Show => ({
  key: row.key,
  name: row.name,
  date: row.date,
  createdAt: row.created_at,
  createdBy: row.created_by,
  caseListingIds: idsOf(row.case_ids),
});

const tenderOf = (row: TenderRow): Tender => ({
  kind: row.kind,
  amountCents: row.amount_cents,
  note: row.note,
  trade:
    row.kind === 'trade' && row.trade_title !== null
      ? { title: row.trade_title, certNumber: row.trade_cert, grader: row.trade_grader }
      : null,
});

const entryOf = (row: EntryRow, tenders: TenderRow[]): LedgerEntry => ({
  key: row.key,
  showKey: row.show_key,
  soldAt: row.sold_at,
  recordedAt: row.recorded_at,
  soldBy: row.sold_by,
  listingId: row.listing_id,
  title: row.title,
  certNumber: row.cert_number,
  grader: row.grader,
  priceCents: row.price_cents,
  discountCents: row.discount_cents,
  tenders: tenders.map(tenderOf),
  costCents: row.cost_cents,
  soldOnline: row.sold_online === 1,
  offMarket: row.off_market,
  note: row.note,
  voided:
    row.voided_at === null
      ? null
      : { at: row.voided_at, by: row.voided_by ?? '', reason: row.void_reason },
});

/**
 * The ledger as first kept (`show_schema` version 0): a sale's cash and one traded card on its
 * own row.
 */
const VERSION_0 = `CREATE TABLE IF NOT EXISTS shows (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    date TEXT NOT NULL,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    case_ids TEXT NOT NULL DEFAULT '[]'
  );
  CREATE TABLE IF NOT EXISTS show_entries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL UNIQUE,
    show_key TEXT NOT NULL REFERENCES shows (key),
    sold_at TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    sold_by TEXT NOT NULL,
    listing_id TEXT NOT NULL,
    title TEXT NOT NULL,
    cert_number TEXT,
    grader TEXT,
    price_cents INTEGER NOT NULL,
    cash_cents INTEGER NOT NULL,
    trade_title TEXT,
    trade_cert TEXT,
    trade_grader TEXT,
    trade_value_cents INTEGER,
    cost_cents INTEGER,
    sold_online INTEGER NOT NULL,
    off_market TEXT NOT NULL,
    note TEXT
  );
  CREATE INDEX IF NOT EXISTS show_entries_by_show ON show_entries (show_key, seq);
  CREATE INDEX IF NOT EXISTS show_entries_by_listing ON show_entries (listing_id, seq);`;

/**
 * Then (`show_schema` version 1): a sale's tenders as rows of their own (cash, card, other,
 * trade; a split is several),
 * its discount, and its undoing. A ledger kept before reads the same: its trade and its cash
 * become its tenders.
 */
const VERSION_1 = `CREATE TABLE show_tenders (
    entry_key TEXT NOT NULL REFERENCES show_entries (key),
    position INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('cash', 'card', 'other', 'trade')),
    amount_cents INTEGER NOT NULL,
    note TEXT,
    trade_title TEXT,
    trade_cert TEXT,
    trade_grader TEXT,
    PRIMARY KEY (entry_key, position)
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

/**
 * A ledger kept before `schema_versions` counted its own steps in `show_schema` (its version 0
 * is the first step here): its version is read once and carried over, the table dropped.
 */
function adoptShowSchema(db: Database.Database): number {
  const kept = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'show_schema'")
    .get();
  if (!kept) return 0;
  const row = db.prepare('SELECT version FROM show_schema').get() as
    { version: number } | undefined;
  db.exec('DROP TABLE show_schema');
  return row === undefined ? 0 : row.version + 1;
}

export class ShowStore {
  private readonly file: StoreFile;
  private readonly db: Database.Database;

  constructor(path: string) {
    // What sold at the table, and for how much: the seller's books, private like the accounts.
    this.file = openStore(path, 'shows', [VERSION_0, VERSION_1], { adopt: adoptShowSchema });
    this.db = this.file.db;
  }

  /** Creates the show, or returns the one already made under this key (a retried sync). */
  createShow(show: Omit<Show, 'caseListingIds'>): { show: Show; created: boolean } {
    const known = this.show(show.key);
    if (known) return { show: known, created: false };
    this.db
      .prepare(
        `INSERT INTO shows (key, name, date, created_at, created_by)
         VALUES (@key, @name, @date, @createdAt, @createdBy)`,
      )
      .run(show);
    return { show: this.show(show.key)!, created: true };
  }

  show(key: string): Show | undefined {
    const row = this.db.prepare('SELECT * FROM shows WHERE key = ?').get(key) as
      ShowRow | undefined;
    return row ? showOf(row) : undefined;
  }

  /** Every show, newest date first. */
  shows(limit: number): Show[] {
    const rows = this.db
      .prepare('SELECT * FROM shows ORDER BY date DESC, created_at DESC LIMIT ?')
      .all(limit) as ShowRow[];
    return rows.map(showOf);
  }

  /** Marks the show's case; false when there is no such show. */
  setCase(key: string, listingIds: readonly string[]): boolean {
    const result = this.db
      .prepare('UPDATE shows SET case_ids = ? WHERE key = ?')
      .run(JSON.stringify([...new Set(listingIds)]), key);
    return result.changes > 0;
  }

  /**
   * Records the entry, or returns the one already recorded under its key (a retried sync): the
   * first one stands, whatever the retry carries. A listing sold at any show, and not undone, is
   * refused. One immediate transaction (the write lock taken before the look), so two phones, or
   * two servers on this file, cannot both record a sale of one listing.
   */
  record(entry: NewLedgerEntry, recordedAt: string): Recorded {
    const insert = this.db.transaction((): Recorded => {
      const known = this.entry(entry.key);
      if (known) return { entry: known, created: false };
      const soldBefore = this.saleOf(entry.listingId);
      if (soldBefore) return { soldBefore };
      this.db
        .prepare(
          `INSERT INTO show_entries (key, show_key, sold_at, recorded_at, sold_by, listing_id,
             title, cert_number, grader, price_cents, discount_cents, cost_cents, sold_online,
             off_market, note)
           VALUES (@key, @show_key, @sold_at, @recorded_at, @sold_by, @listing_id, @title,
             @cert_number, @grader, @price_cents, @discount_cents, @cost_cents, @sold_online,
             @off_market, @note)`,
        )
        .run({
          key: entry.key,
          show_key: entry.showKey,
          sold_at: entry.soldAt,
          recorded_at: recordedAt,
          sold_by: entry.soldBy,
          listing_id: entry.listingId,
          title: entry.title,
          cert_number: entry.certNumber,
          grader: entry.grader,
          price_cents: entry.priceCents,
          discount_cents: entry.discountCents,
          cost_cents: entry.costCents,
          sold_online: entry.soldOnline ? 1 : 0,
          off_market: entry.offMarket,
          note: entry.note,
        });
      const tender = this.db.prepare(
        `INSERT INTO show_tenders (entry_key, position, kind, amount_cents, note, trade_title,
           trade_cert, trade_grader)
         VALUES (@entry_key, @position, @kind, @amount_cents, @note, @trade_title, @trade_cert,
           @trade_grader)`,
      );
      entry.tenders.forEach((paid, position) =>
        tender.run({
          entry_key: entry.key,
          position,
          kind: paid.kind,
          amount_cents: paid.amountCents,
          note: paid.note,
          trade_title: paid.trade?.title ?? null,
          trade_cert: paid.trade?.certNumber ?? null,
          trade_grader: paid.trade?.grader ?? null,
        }),
      );
      return { entry: this.entry(entry.key)!, created: true };
    });
    return insert.immediate();
  }

  /**
   * Undoes a sale of the show: kept in the ledger as undone (who, when, why), out of the totals,
   * the listing free to be sold again. An entry undone before is answered as it stands (a retry);
   * undefined when the show has no such entry.
   */
  voidEntry(
    showKey: string,
    key: string,
    done: SaleVoid,
  ): { entry: LedgerEntry; changed: boolean } | undefined {
    const undo = this.db.transaction(() => {
      const entry = this.entry(key);
      if (!entry || entry.showKey !== showKey) return undefined;
      if (entry.voided) return { entry, changed: false };
      this.db
        .prepare(
          'UPDATE show_entries SET voided_at = ?, voided_by = ?, void_reason = ? WHERE key = ?',
        )
        .run(done.at, done.by, done.reason, key);
      return { entry: this.entry(key)!, changed: true };
    });
    return undo.immediate();
  }

  /** Tender rows grouped by their entry's key. */
  private static byEntry(rows: TenderRow[]): Map<string, TenderRow[]> {
    const byEntry = new Map<string, TenderRow[]>();
    for (const row of rows) {
      const list = byEntry.get(row.entry_key) ?? [];
      list.push(row);
      byEntry.set(row.entry_key, list);
    }
    return byEntry;
  }

  /** One entry's tenders, in the order paid. */
  private tendersOf(entryKey: string): TenderRow[] {
    return this.db
      .prepare('SELECT * FROM show_tenders WHERE entry_key = ? ORDER BY position')
      .all(entryKey) as TenderRow[];
  }

  /** The tenders of a show's entries, by entry key. */
  private showTenders(showKey: string): Map<string, TenderRow[]> {
    const rows = this.db
      .prepare(
        `SELECT t.* FROM show_tenders t JOIN show_entries e ON e.key = t.entry_key
         WHERE e.show_key = ? ORDER BY t.entry_key, t.position`,
      )
      .all(showKey) as TenderRow[];
    return ShowStore.byEntry(rows);
  }

  /** The listing's standing sale at a show (not undone; the first, should an old ledger hold two). */
  saleOf(listingId: string): ShowSale | undefined {
    const row = this.db
      .prepare(
        `SELECT e.*, s.name AS show_name, s.date AS show_date
         FROM show_entries e JOIN shows s ON s.key = e.show_key
         WHERE e.listing_id = ? AND e.voided_at IS NULL ORDER BY e.seq LIMIT 1`,
      )
      .get(listingId) as (EntryRow & { show_name: string; show_date: string }) | undefined;
    if (!row) return undefined;
    return {
      ...entryOf(row, this.tendersOf(row.key)),
      showName: row.show_name,
      showDate: row.show_date,
    };
  }

  /** The keys of the listing's sales that were undone (a phone forgets its own record of them). */
  voidedKeysOf(listingId: string): string[] {
    const rows = this.db
      .prepare(
        `SELECT key FROM show_entries WHERE listing_id = ? AND voided_at IS NOT NULL
         ORDER BY seq LIMIT 100`,
      )
      .all(listingId) as { key: string }[];
    return rows.map((row) => row.key);
  }

  entry(key: string): LedgerEntry | undefined {
    const row = this.db.prepare('SELECT * FROM show_entries WHERE key = ?').get(key) as
      EntryRow | undefined;
    return row ? entryOf(row, this.tendersOf(key)) : undefined;
  }

  /** A show's entries in the order they were recorded. */
  entries(showKey: string): LedgerEntry[] {
    const rows = this.db
      .prepare('SELECT * FROM show_entries WHERE show_key = ? ORDER BY seq')
      .all(showKey) as EntryRow[];
    const tenders = this.showTenders(showKey);
    return rows.map((row) => entryOf(row, tenders.get(row.key) ?? []));
  }

  /**
   * The cards taken in trade at any show, newest first (New listing offers their cost); a card
   * of a sale undone went back to its owner.
   */
  tradeIns(limit: number): KeptTradeIn[] {
    const rows = this.db
      .prepare(
        `SELECT t.*, e.show_key, e.sold_at, s.name AS show_name
         FROM show_tenders t
         JOIN show_entries e ON e.key = t.entry_key
         JOIN shows s ON s.key = e.show_key
         WHERE t.kind = 'trade' AND t.trade_title IS NOT NULL AND e.voided_at IS NULL
         ORDER BY e.seq DESC, t.position LIMIT ?`,
      )
      .all(limit) as (TenderRow & { show_key: string; sold_at: string; show_name: string })[];
    return rows.map((row) => ({
      title: row.trade_title!,
      certNumber: row.trade_cert,
      grader: row.trade_grader,
      valueCents: row.amount_cents,
      entryKey: row.entry_key,
      showKey: row.show_key,
      showName: row.show_name,
      soldAt: row.sold_at,
    }));
  }

  close(): void {
    this.file.close();
  }
}
