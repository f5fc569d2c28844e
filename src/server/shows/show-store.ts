import type Database from 'better-sqlite3';
import { openPrivateDatabase, tightenDatabaseFiles } from '../private-files';

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

export interface TradeIn {
  title: string;
  certNumber: string | null;
  grader: string | null;
  /** The agreed value, in cents: the card's cost when it is listed later. */
  valueCents: number;
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
  priceCents: number;
  cashCents: number;
  tradeIn: TradeIn | null;
  /** The card's cost when sold, when known. */
  costCents: number | null;
  /** The card had sold online before the deactivation landed: settle with the buyer. */
  soldOnline: boolean;
  /** What became of the listing on the marketplace when the sale synced. */
  offMarket: 'deactivated' | 'sold_online' | 'not_taken_off';
  /** Why the listing was not taken off, in the seller's words, when it was not. */
  note: string | null;
}

export type NewLedgerEntry = Omit<LedgerEntry, 'recordedAt'>;

/** A listing's sale at a show, with the show it was sold at. */
export interface ShowSale extends LedgerEntry {
  showName: string;
  /** The show's day, YYYY-MM-DD. */
  showDate: string;
}

/**
 * What recording a sale came to: recorded now, the one already recorded under its key (a retried
 * sync), or refused because the listing was sold before (a slab is sold once, at any show).
 */
export type Recorded =
  { entry: LedgerEntry; created: boolean; soldBefore?: undefined } | { soldBefore: ShowSale };

export interface ShowTotals {
  cardsSold: number;
  salesCents: number;
  cashCents: number;
  trades: number;
  tradeValueCents: number;
  /** Price less cost, over the entries whose cost is known. */
  marginCents: number;
  withoutCost: number;
  soldOnline: number;
}

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
  cash_cents: number;
  trade_title: string | null;
  trade_cert: string | null;
  trade_grader: string | null;
  trade_value_cents: number | null;
  cost_cents: number | null;
  sold_online: number;
  off_market: LedgerEntry['offMarket'];
  note: string | null;
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

const entryOf = (row: EntryRow): LedgerEntry => ({
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
  cashCents: row.cash_cents,
  tradeIn:
    row.trade_title === null || row.trade_value_cents === null
      ? null
      : {
          title: row.trade_title,
          certNumber: row.trade_cert,
          grader: row.trade_grader,
          valueCents: row.trade_value_cents,
        },
  costCents: row.cost_cents,
  soldOnline: row.sold_online === 1,
  offMarket: row.off_market,
  note: row.note,
});

/** The figures of a show's page, from its entries. */
export function totalsOf(entries: readonly LedgerEntry[]): ShowTotals {
  const totals: ShowTotals = {
    cardsSold: 0,
    salesCents: 0,
    cashCents: 0,
    trades: 0,
    tradeValueCents: 0,
    marginCents: 0,
    withoutCost: 0,
    soldOnline: 0,
  };
  for (const entry of entries) {
    totals.cardsSold++;
    totals.salesCents += entry.priceCents;
    totals.cashCents += entry.cashCents;
    if (entry.tradeIn) {
      totals.trades++;
      totals.tradeValueCents += entry.tradeIn.valueCents;
    }
    if (entry.costCents === null) totals.withoutCost++;
    else totals.marginCents += entry.priceCents - entry.costCents;
    if (entry.soldOnline) totals.soldOnline++;
  }
  return totals;
}

export class ShowStore {
  private readonly db: Database.Database;

  constructor(path: string) {
    // What sold at the table, and for how much: the seller's books, private like the accounts.
    this.db = openPrivateDatabase(path);
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS shows (
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
       CREATE INDEX IF NOT EXISTS show_entries_by_listing ON show_entries (listing_id, seq);`,
    );
    tightenDatabaseFiles(path);
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
   * first one stands, whatever the retry carries. A listing already sold at any show is refused.
   * One immediate transaction (the write lock taken before the look), so two phones, or two
   * servers on this file, cannot both record a sale of one listing.
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
             title, cert_number, grader, price_cents, cash_cents, trade_title, trade_cert,
             trade_grader, trade_value_cents, cost_cents, sold_online, off_market, note)
           VALUES (@key, @show_key, @sold_at, @recorded_at, @sold_by, @listing_id, @title,
             @cert_number, @grader, @price_cents, @cash_cents, @trade_title, @trade_cert,
             @trade_grader, @trade_value_cents, @cost_cents, @sold_online, @off_market, @note)`,
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
          cash_cents: entry.cashCents,
          trade_title: entry.tradeIn?.title ?? null,
          trade_cert: entry.tradeIn?.certNumber ?? null,
          trade_grader: entry.tradeIn?.grader ?? null,
          trade_value_cents: entry.tradeIn?.valueCents ?? null,
          cost_cents: entry.costCents,
          sold_online: entry.soldOnline ? 1 : 0,
          off_market: entry.offMarket,
          note: entry.note,
        });
      return { entry: this.entry(entry.key)!, created: true };
    });
    return insert.immediate();
  }

  /** The listing's sale at a show (the first recorded, should a ledger kept before hold two). */
  saleOf(listingId: string): ShowSale | undefined {
    const row = this.db
      .prepare(
        `SELECT e.*, s.name AS show_name, s.date AS show_date
         FROM show_entries e JOIN shows s ON s.key = e.show_key
         WHERE e.listing_id = ? ORDER BY e.seq LIMIT 1`,
      )
      .get(listingId) as (EntryRow & { show_name: string; show_date: string }) | undefined;
    return row ? { ...entryOf(row), showName: row.show_name, showDate: row.show_date } : undefined;
  }

  entry(key: string): LedgerEntry | undefined {
    const row = this.db.prepare('SELECT * FROM show_entries WHERE key = ?').get(key) as
      EntryRow | undefined;
    return row ? entryOf(row) : undefined;
  }

  /** A show's entries in the order they were recorded. */
  entries(showKey: string): LedgerEntry[] {
    const rows = this.db
      .prepare('SELECT * FROM show_entries WHERE show_key = ? ORDER BY seq')
      .all(showKey) as EntryRow[];
    return rows.map(entryOf);
  }

  /** The cards taken in trade at any show, newest first (New listing offers their cost). */
  tradeIns(limit: number): KeptTradeIn[] {
    const rows = this.db
      .prepare(
        `SELECT e.*, s.name AS show_name FROM show_entries e JOIN shows s ON s.key = e.show_key
         WHERE e.trade_title IS NOT NULL ORDER BY e.seq DESC LIMIT ?`,
      )
      .all(limit) as (EntryRow & { show_name: string })[];
    return rows.map((row) => ({
      ...entryOf(row).tradeIn!,
      entryKey: row.key,
      showKey: row.show_key,
      showName: row.show_name,
      soldAt: row.sold_at,
    }));
  }

  close(): void {
    this.db.close();
  }
}
