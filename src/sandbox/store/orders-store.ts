import type { Statement } from 'better-sqlite3';
import type { Db } from './database';
import { memberIdsSql } from './listings-store';
import { keysetPage, type Page, type PageRequest } from './paging';
import type { OrderRow, OrderWithLineRow, Scope } from './rows';

const SELECT_WITH_LINE = `SELECT t.*, l.title AS line_title, c.cert_number AS line_sku,
  t.subtotal_cents AS line_price_cents, l.primary_item_id AS line_inventory_item_id,
  l.is_lot AS line_is_lot,
  ${memberIdsSql('l')} AS line_item_ids
  FROM orders t JOIN listings l ON l.id = t.listing_id
  JOIN inventory_items c ON c.id = l.primary_item_id`;

/** The `status` filter of GET /orders.json, as SQL over the base table `t`. */
export const ORDER_STATUS_SQL = {
  open: 't.cancelled_at IS NULL AND t.stage < 5',
  closed: 't.cancelled_at IS NULL AND t.stage >= 5',
  cancelled: 't.cancelled_at IS NOT NULL',
} as const;

export type OrderStatusFilter = keyof typeof ORDER_STATUS_SQL | 'any';

const UPDATABLE = new Set<keyof OrderRow>([
  'financial_status',
  'stage',
  'refunded_cents',
  'cancel_reason',
  'cancelled_at',
  'closed_at',
  'tracking_number',
  'label_url',
  'shipped_at',
  'delivered_to_hub_at',
  'authenticated_at',
  'buyer_shipped_at',
  'buyer_delivered_at',
  'paid_at',
  'payout_cents',
  'updated_at',
]);

export type OrderPatch = Partial<OrderRow>;

/** Orders (one line item each) and their lifecycle columns. */
export function createOrdersStore(db: Db) {
  const statements = new Map<string, Statement<unknown[]>>();
  const insertOrder = db.prepare(
    `INSERT INTO orders (id, seller_id, test, name, order_number, listing_id, line_item_id,
       sale_channel, delivery_method, subtotal_cents, tax_cents, refunded_cents, fee_cents,
       financial_status, stage, cancel_reason, cancelled_at, closed_at, sold_at, ship_by,
       cancel_after, tracking_number, carrier_code, label_url, shipped_at, delivered_to_hub_at,
       authenticated_at, buyer_shipped_at, buyer_delivered_at, paid_at, payout_cents, created_at,
       updated_at)
     VALUES (@id, @seller_id, @test, @name, @order_number, @listing_id, @line_item_id,
       @sale_channel, @delivery_method, @subtotal_cents, @tax_cents, @refunded_cents, @fee_cents,
       @financial_status, @stage, @cancel_reason, @cancelled_at, @closed_at, @sold_at, @ship_by,
       @cancel_after, @tracking_number, @carrier_code, @label_url, @shipped_at,
       @delivered_to_hub_at, @authenticated_at, @buyer_shipped_at, @buyer_delivered_at, @paid_at,
       @payout_cents, @created_at, @updated_at)`,
  );
  const selectOne = db.prepare(
    `${SELECT_WITH_LINE} WHERE (t.id = ? OR t.name = ?) AND t.seller_id = ? AND t.test = ?`,
  );
  const selectAnyScope = db.prepare(`${SELECT_WITH_LINE} WHERE t.id = ?`);
  const selectForListing = db.prepare(
    `SELECT * FROM orders WHERE listing_id = ? ORDER BY seq DESC LIMIT 1`,
  );
  const maxNumber = db.prepare(
    `SELECT COALESCE(MAX(order_number), 1000) AS n FROM orders WHERE seller_id = ?`,
  );
  const nameTaken = db.prepare(`SELECT 1 FROM orders WHERE name = ?`);
  const selectOpen = db.prepare(
    `SELECT id FROM orders WHERE seller_id = ? AND test = ? AND cancelled_at IS NULL AND stage < 6
     ORDER BY seq LIMIT 200`,
  );

  return {
    insert(row: Omit<OrderRow, 'seq'>): void {
      insertOrder.run(row);
    },
    get(idOrName: string, scope: Scope): OrderWithLineRow | undefined {
      return selectOne.get(idOrName, idOrName, scope.sellerId, scope.test ? 1 : 0) as
        OrderWithLineRow | undefined;
    },
    getById(id: string): OrderWithLineRow | undefined {
      return selectAnyScope.get(id) as OrderWithLineRow | undefined;
    },
    forListing(listingId: string): OrderRow | undefined {
      return selectForListing.get(listingId) as OrderRow | undefined;
    },
    nextOrderNumber(sellerId: string): number {
      return (maxNumber.get(sellerId) as { n: number }).n + 1;
    },
    nameTaken(name: string): boolean {
      return nameTaken.get(name) !== undefined;
    },
    /** Orders still moving through their lifecycle, oldest first (for the demo simulation). */
    openIds(scope: Scope): string[] {
      return (selectOpen.all(scope.sellerId, scope.test ? 1 : 0) as { id: string }[]).map(
        (r) => r.id,
      );
    },
    update(id: string, patch: OrderPatch): void {
      const columns = Object.keys(patch) as (keyof OrderRow)[];
      if (columns.length === 0) return;
      for (const column of columns) {
        if (!UPDATABLE.has(column)) throw new Error(`order column ${column} is not updatable`);
      }
      const sql = `UPDATE orders SET ${columns.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`;
      let statement = statements.get(sql);
      if (!statement) {
        statement = db.prepare<unknown[]>(sql);
        statements.set(sql, statement);
      }
      statement.run({ ...patch, id });
    },
    page(request: PageRequest, status: OrderStatusFilter): Page<OrderWithLineRow> {
      const where = status === 'any' ? undefined : { sql: ORDER_STATUS_SQL[status], params: [] };
      return keysetPage(db, statements, SELECT_WITH_LINE, { ...request, where });
    },
  };
}
