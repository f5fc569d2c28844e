import type { Db } from './database';
import { memberIdsSql } from './listings-store';
import { scopeParams, sqlOf, type Page, type PageRequest } from './sql';
import type { OrderRow, OrderWithLineRow, Scope } from './rows';

const SELECT_WITH_LINE = `SELECT t.*, l.title AS line_title, c.cert_number AS line_sku,
  t.subtotal_cents AS line_price_cents, l.primary_item_id AS line_inventory_item_id,
  l.is_lot AS line_is_lot,
  ${memberIdsSql('l')} AS line_item_ids
  FROM orders t JOIN listings l ON l.id = t.listing_id
  JOIN inventory_items c ON c.id = l.primary_item_id`;

/** The `status` filter of GET /orders.json, as SQL over the base table `t`. */
const ORDER_STATUS_SQL = {
  open: 't.cancelled_at IS NULL AND t.stage < 5',
  closed: 't.cancelled_at IS NULL AND t.stage >= 5',
  cancelled: 't.cancelled_at IS NOT NULL',
} as const;

export type OrderStatusFilter = keyof typeof ORDER_STATUS_SQL | 'any';
/** The filter's values, for the route and the OpenAPI document. */
export const ORDER_STATUSES = [...Object.keys(ORDER_STATUS_SQL), 'any'] as OrderStatusFilter[];

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

/** Orders (one line item each) and their lifecycle columns. */
export function createOrdersStore(db: Db) {
  const sql = sqlOf(db);
  const selectOne = sql.one<OrderWithLineRow, [string, string, string, number]>(
    `${SELECT_WITH_LINE} WHERE (t.id = ? OR t.name = ?) AND t.seller_id = ? AND t.test = ?`,
  );
  const maxNumber = sql.one<{ n: number }>(
    `SELECT COALESCE(MAX(order_number), 1000) AS n FROM orders WHERE seller_id = ?`,
  );
  const nameTaken = sql.one<1>(`SELECT 1 FROM orders WHERE name = ?`);
  const selectOpen = sql.all<{ id: string }, [string, number]>(
    `SELECT id FROM orders WHERE seller_id = ? AND test = ? AND cancelled_at IS NULL AND stage < 6
     ORDER BY seq LIMIT 200`,
  );

  return {
    insert(row: Omit<OrderRow, 'seq'>): void {
      sql.insert('orders', row);
    },
    get: (idOrName: string, scope: Scope) => selectOne(idOrName, idOrName, ...scopeParams(scope)),
    getById: sql.one<OrderWithLineRow>(`${SELECT_WITH_LINE} WHERE t.id = ?`),
    forListing: sql.one<OrderRow>(
      `SELECT * FROM orders WHERE listing_id = ? ORDER BY seq DESC LIMIT 1`,
    ),
    nextOrderNumber: (sellerId: string) => maxNumber(sellerId)!.n + 1,
    nameTaken: (name: string) => nameTaken(name) !== undefined,
    /** Orders still moving through their lifecycle, oldest first (for the demo simulation). */
    openIds: (scope: Scope) => selectOpen(...scopeParams(scope)).map((r) => r.id),
    update(id: string, patch: Partial<OrderRow>): void {
      sql.update('orders', UPDATABLE, id, patch);
    },
    page(request: PageRequest, status: OrderStatusFilter): Page<OrderWithLineRow> {
      const where = status === 'any' ? undefined : { sql: ORDER_STATUS_SQL[status], params: [] };
      return sql.page(SELECT_WITH_LINE, { ...request, where });
    },
  };
}
