import type { Db } from './database';
import { sqlOf, type Page, type PageRequest } from './sql';
import type { InventoryLevelRow } from './rows';

/** Per-card availability, kept in step with listings and orders by the domain layer. */
export function createLevelsStore(db: Db) {
  const sql = sqlOf(db);
  const upsert = sql.run<[InventoryLevelRow]>(
    `INSERT INTO inventory_levels (item_seq, inventory_item_id, seller_id, test, location_id,
       available, reason, reason_detail, can_reactivate, updated_at)
     VALUES (@item_seq, @inventory_item_id, @seller_id, @test, @location_id, @available, @reason,
       @reason_detail, @can_reactivate, @updated_at)
     ON CONFLICT (inventory_item_id) DO UPDATE SET location_id = excluded.location_id,
       available = excluded.available, reason = excluded.reason,
       reason_detail = excluded.reason_detail, can_reactivate = excluded.can_reactivate,
       updated_at = excluded.updated_at
     WHERE inventory_levels.location_id IS NOT excluded.location_id
       OR inventory_levels.available IS NOT excluded.available
       OR inventory_levels.reason IS NOT excluded.reason
       OR inventory_levels.reason_detail IS NOT excluded.reason_detail
       OR inventory_levels.can_reactivate IS NOT excluded.can_reactivate`,
  );

  return {
    /** Writes the level; `updated_at` moves only when something about the level changed. */
    put: upsert,
    page(request: PageRequest): Page<InventoryLevelRow> {
      return sql.page(`SELECT t.* FROM inventory_levels t`, request, 't.item_seq');
    },
  };
}
