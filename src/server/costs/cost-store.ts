import type Database from 'better-sqlite3';
import { openStore, type StoreFile } from '../../shared/sqlite/open-store';

/**
 * The seller's own cost of each card, kept by the hub: the API documents no write of an
 * inventory item's `cost`, so a cost set in Slabdesk lives here (SQLite, WAL), every SQL of it
 * in this module. A kept cost is read over the marketplace's wherever a cost is read.
 */

/** One card's kept cost. */
export interface KeptCost {
  /** The inventory item id (a listing's `card.id`). */
  itemId: string;
  costCents: number;
  setAt: string;
  setBy: string;
}

/** The most cards the store keeps a cost for: a seller's whole inventory, with room. */
export const MAX_KEPT_COSTS = 500_000;

interface CostRow {
  item_id: string;
  cost_cents: number;
  set_at: string;
  set_by: string;
}

const costOf = (row: CostRow): KeptCost => ({
  itemId: row.item_id,
  costCents: row.cost_cents,
  setAt: row.set_at,
  setBy: row.set_by,
});

/** What setting a cost came to: kept, or refused because the store is full. */
export type CostSet = { kept: KeptCost | null } | { full: true };

export class CostStore {
  private readonly file: StoreFile;
  private readonly db: Database.Database;
  /** Counts every change, so a reader that holds costs knows when to read them again. */
  private changes = 0;
  private readonly byId = new Map<string, bigint>();

  constructor(path: string) {
    // What the seller paid for each card: the seller's books, private like the ledger.
    this.file = openStore(path, 'costs', [
      `CREATE TABLE IF NOT EXISTS kept_costs (
         item_id TEXT PRIMARY KEY,
         cost_cents INTEGER NOT NULL,
         set_at TEXT NOT NULL,
         set_by TEXT NOT NULL
       );`,
    ]);
    this.db = this.file.db;
    for (const cost of this.all()) this.byId.set(cost.itemId, BigInt(cost.costCents));
  }

  /** Every kept cost. */
  all(): KeptCost[] {
    return (this.db.prepare('SELECT * FROM kept_costs ORDER BY item_id').all() as CostRow[]).map(
      costOf,
    );
  }

  /** One card's kept cost in cents, if one is set (read from memory: the rules ask per listing). */
  centsOf(itemId: string): bigint | undefined {
    return this.byId.get(itemId);
  }

  /** A number that changes whenever a kept cost does. */
  version(): number {
    return this.changes;
  }

  /** Sets a card's cost (`null`: forget it, the marketplace's cost stands again). */
  set(itemId: string, costCents: number | null, setAt: string, setBy: string): CostSet {
    if (costCents === null) {
      this.db.prepare('DELETE FROM kept_costs WHERE item_id = ?').run(itemId);
      this.byId.delete(itemId);
      this.changes++;
      return { kept: null };
    }
    if (!this.byId.has(itemId) && this.byId.size >= MAX_KEPT_COSTS) return { full: true };
    this.db
      .prepare(
        `INSERT INTO kept_costs (item_id, cost_cents, set_at, set_by)
         VALUES (@itemId, @costCents, @setAt, @setBy)
         ON CONFLICT (item_id) DO UPDATE SET
           cost_cents = excluded.cost_cents, set_at = excluded.set_at, set_by = excluded.set_by`,
      )
      .run({ itemId, costCents, setAt, setBy });
    this.byId.set(itemId, BigInt(costCents));
    this.changes++;
    return { kept: { itemId, costCents, setAt, setBy } };
  }

  close(): void {
    this.file.close();
  }
}
