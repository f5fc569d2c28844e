import type { Order } from '../../client';
import { csvTime, toCsv } from '../../shared/delimited';
import { humanize } from '../../lib/format';
import { centsOf, formatCents } from '../../shared/money';
import { orderMoney } from '../../api/sales/order-money';
import { orderStatusOf } from '../../api/orders/order-queries';

/** What an order's cells are read from: it, its (first) line, its payout once paid, its cost. */
interface CsvFacts {
  order: Order;
  line: NonNullable<Order['line_items']>[number] | undefined;
  paidCents: number | undefined;
  cost: string | undefined;
  /** A time in the seller's zone, as the pages write it. */
  time(iso: string | null | undefined): string;
}

/** A status in words, as the pages write it. */
const words = (code: string | null | undefined) => (code ? humanize(code) : '');

/** The export's columns, each with its cell: money as decimal dollars, a field not shown blank. */
const CELLS = {
  order_code: ({ order }) => order.name ?? '',
  order_id: ({ order }) => order.id,
  sold_at: ({ order, time }) => time(order.svc_sold_at),
  status: ({ order }) => words(orderStatusOf(order)),
  financial_status: ({ order }) => words(order.financial_status),
  card: ({ line }) => line?.title ?? '',
  cert_number: ({ line }) => line?.sku ?? '',
  listing_id: ({ line }) => line?.product_id ?? '',
  inventory_item_id: ({ line }) => line?.inventory_item_id ?? '',
  sale: ({ order }) => order.subtotal_price ?? '',
  tax: ({ order }) => order.total_tax ?? '',
  platform_fee: ({ order }) => order.svc_payout?.platform_fee ?? '',
  refunded: ({ order }) => order.total_refunded ?? '',
  payout_status: ({ order }) => words(order.svc_payout?.status),
  payout: ({ paidCents }) => (paidCents === undefined ? '' : formatCents(paidCents)),
  paid_at: ({ order, time }) => time(order.svc_payout?.paid_at),
  cost: ({ cost }) => cost ?? '',
  realised_margin: ({ paidCents, cost }) =>
    paidCents !== undefined && cost !== undefined
      ? formatCents(paidCents - (centsOf(cost) ?? 0))
      : '',
} satisfies Record<string, (facts: CsvFacts) => string>;

/** The columns of the orders export: one row per order. */
export const ORDER_CSV_COLUMNS = Object.keys(CELLS) as (keyof typeof CELLS)[];

/** One CSV row per order (documented fields, `cost`, payout once paid); every cell neutralised. */
export function ordersCsv(
  orders: readonly Order[],
  costOf: (inventoryItemId: string) => string | undefined,
  zone = Intl.DateTimeFormat().resolvedOptions().timeZone,
): string {
  const time = (iso: string | null | undefined) => (iso ? csvTime(iso, zone) : '');
  const records = orders.map((order) => {
    const line = order.line_items?.[0];
    const money = orderMoney(order);
    const facts: CsvFacts = {
      order,
      line,
      time,
      paidCents: money.netIsPaid ? money.netCents : undefined,
      cost: line ? costOf(line.inventory_item_id) : undefined,
    };
    return ORDER_CSV_COLUMNS.map((column) => CELLS[column](facts));
  });
  return toCsv([[...ORDER_CSV_COLUMNS], ...records]);
}
