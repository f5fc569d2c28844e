import { SqliteStore } from '../sqlite-store';

// The seller's own cost of each card, kept by the hub (the API documents no write of an inventory
// item's `cost`); a kept cost is read over the marketplace's wherever read.

export interface KeptCost {
  /** The inventory item id (a listing's `card.id`). */
  itemId: string;
  costCents: number;
  setAt: string;
  setBy: string;
}

/** The most cards the store keeps a cost for: a seller's whole inventory, with room. */
const MAX_KEPT_COSTS = 500_000;

export class CostStore extends SqliteStore {
  /** Every kept cost in cents, read from memory: the rules ask per listing. */
  private readonly byId = new Map<string, bigint>();

  constructor(path: string) {
    super(path, 'costs', [
      `CREATE TABLE IF NOT EXISTS kept_costs (
         item_id TEXT PRIMARY KEY, cost_cents INTEGER NOT NULL, set_at TEXT NOT NULL,
         set_by TEXT NOT NULL
       );`,
    ]);
    for (const cost of this.all()) this.byId.set(cost.itemId, BigInt(cost.costCents));
  }

  all(): KeptCost[] {
    const sql = `SELECT item_id AS itemId, cost_cents AS costCents, set_at AS setAt, set_by AS setBy
      FROM kept_costs ORDER BY item_id`;
    return this.sql(sql).all() as KeptCost[];
  }

  centsOf(itemId: string): bigint | undefined {
    return this.byId.get(itemId);
  }

  /** SQLite's count of rows changed: a reader that holds costs knows when to read them again. */
  version(): number {
    return this.sql('SELECT total_changes()').pluck().get() as number;
  }

  /** Sets a card's cost (`null`: forgets it, the marketplace's stands); `full` past the most. */
  set(itemId: string, costCents: number | null, setAt: string, setBy: string) {
    if (costCents !== null && !this.byId.has(itemId) && this.byId.size >= MAX_KEPT_COSTS) {
      return { full: true } as const;
    }
    if (costCents === null) {
      this.sql('DELETE FROM kept_costs WHERE item_id = ?').run(itemId);
      this.byId.delete(itemId);
      return { kept: null };
    }
    const kept: KeptCost = { itemId, costCents, setAt, setBy };
    const sql = 'INSERT OR REPLACE INTO kept_costs VALUES (@itemId, @costCents, @setAt, @setBy)';
    this.sql(sql).run(kept);
    this.byId.set(itemId, BigInt(costCents));
    return { kept };
  }
}
