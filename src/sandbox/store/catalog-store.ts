import type { Db } from './database';
import { scopeParams, sqlOf, type Page, type PageRequest } from './sql';
import type { CertRow, InventoryItemRow, Scope } from './rows';

/** The grader lookup's registered certs, and the sellers' cards (inventory items). */
export function createCatalogStore(db: Db) {
  const sql = sqlOf(db);
  const upsertCert = db.prepare(
    `INSERT INTO certs (grader, cert_number, title, grade, year, card_set, player, category, variant)
     VALUES (@grader, @cert_number, @title, @grade, @year, @card_set, @player, @category, @variant)
     ON CONFLICT (grader, cert_number) DO UPDATE SET title = excluded.title, grade = excluded.grade,
       year = excluded.year, card_set = excluded.card_set, player = excluded.player,
       category = excluded.category, variant = excluded.variant`,
  );
  const selectCert = db.prepare(`SELECT * FROM certs WHERE grader = ? AND cert_number = ?`);
  const selectItem = db.prepare(
    `SELECT * FROM inventory_items WHERE id = ? AND seller_id = ? AND test = ?`,
  );
  const selectItemAnyScope = db.prepare(`SELECT * FROM inventory_items WHERE id = ?`);
  const selectItemByCert = db.prepare(
    `SELECT * FROM inventory_items WHERE seller_id = ? AND test = ? AND cert_number = ?
     ORDER BY seq DESC LIMIT 1`,
  );
  const selectItemByCertAnyScope = db.prepare(
    `SELECT * FROM inventory_items WHERE cert_number = ? ORDER BY seq DESC LIMIT 1`,
  );

  return {
    putCert(row: CertRow): CertRow {
      upsertCert.run(row);
      return row;
    },
    cert(grader: string, certNumber: string): CertRow | undefined {
      return selectCert.get(grader, certNumber) as CertRow | undefined;
    },
    createItem(row: Omit<InventoryItemRow, 'seq'>): InventoryItemRow {
      sql.insert('inventory_items', row);
      return selectItemAnyScope.get(row.id) as InventoryItemRow;
    },
    item(id: string, scope: Scope): InventoryItemRow | undefined {
      return selectItem.get(id, ...scopeParams(scope)) as InventoryItemRow | undefined;
    },
    itemById(id: string): InventoryItemRow | undefined {
      return selectItemAnyScope.get(id) as InventoryItemRow | undefined;
    },
    itemByCert(certNumber: string, scope: Scope): InventoryItemRow | undefined {
      return selectItemByCert.get(...scopeParams(scope), certNumber) as
        InventoryItemRow | undefined;
    },
    /** The latest card with this cert, any seller's: the sandbox's own slab pictures. */
    itemByCertAnyScope(certNumber: string): InventoryItemRow | undefined {
      return selectItemByCertAnyScope.get(certNumber) as InventoryItemRow | undefined;
    },
    itemsPage(request: PageRequest): Page<InventoryItemRow> {
      return sql.page(`SELECT t.* FROM inventory_items t`, request);
    },
  };
}
