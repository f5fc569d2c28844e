import type { Db } from './database';
import { scopeParams, sqlOf, type Page, type PageRequest } from './sql';
import type { CertRow, InventoryItemRow, Scope } from './rows';

/** The grader lookup's registered certs, and the sellers' cards (inventory items). */
export function createCatalogStore(db: Db) {
  const sql = sqlOf(db);
  const upsertCert = sql.run<[CertRow]>(
    `INSERT INTO certs (grader, cert_number, title, grade, year, card_set, player, category, variant)
     VALUES (@grader, @cert_number, @title, @grade, @year, @card_set, @player, @category, @variant)
     ON CONFLICT (grader, cert_number) DO UPDATE SET title = excluded.title, grade = excluded.grade,
       year = excluded.year, card_set = excluded.card_set, player = excluded.player,
       category = excluded.category, variant = excluded.variant`,
  );
  const selectItem = sql.one<InventoryItemRow, [string, string, number]>(
    `SELECT * FROM inventory_items WHERE id = ? AND seller_id = ? AND test = ?`,
  );
  const itemById = sql.one<InventoryItemRow>(`SELECT * FROM inventory_items WHERE id = ?`);
  const selectItemByCert = sql.one<InventoryItemRow, [string, number, string]>(
    `SELECT * FROM inventory_items WHERE seller_id = ? AND test = ? AND cert_number = ?
     ORDER BY seq DESC LIMIT 1`,
  );

  return {
    putCert(row: CertRow): CertRow {
      upsertCert(row);
      return row;
    },
    cert: sql.one<CertRow, [grader: string, certNumber: string]>(
      `SELECT * FROM certs WHERE grader = ? AND cert_number = ?`,
    ),
    createItem(row: Omit<InventoryItemRow, 'seq'>): InventoryItemRow {
      sql.insert('inventory_items', row);
      return itemById(row.id)!;
    },
    item: (id: string, scope: Scope) => selectItem(id, ...scopeParams(scope)),
    itemById,
    itemByCert: (certNumber: string, scope: Scope) =>
      selectItemByCert(...scopeParams(scope), certNumber),
    /** The latest card with this cert, any seller's: the sandbox's own slab pictures. */
    itemByCertAnyScope: sql.one<InventoryItemRow>(
      `SELECT * FROM inventory_items WHERE cert_number = ? ORDER BY seq DESC LIMIT 1`,
    ),
    itemsPage(request: PageRequest): Page<InventoryItemRow> {
      return sql.page(`SELECT t.* FROM inventory_items t`, request);
    },
  };
}
