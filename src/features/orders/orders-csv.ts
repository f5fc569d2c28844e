import type { Order } from '../../client';
import { csvTime, toCsv } from '../../shared/delimited';
import { humanize } from '../../lib/format';
import { centsOf, formatCents } from '../../shared/money';
import { orderMoney } from '../../api/sales/order-money';
import { orderStatusOf } from '../../api/orders/order-queries';

/** The columns of the orders export: one row per order, money as decimal dollars. */
export const ORDER_CSV_COLUMNS = [
  'order_code',
  'order_id',
  'sold_at',
  'status',
  'financial_status',
  'card',
  'cert_number',
  'listing_id',
  'inventory_item_id',
  'sale',
  'tax',
  'platform_fee',
  'refunded',
  'payout_status',
  'payout',
  'paid_at',
  'cost',
  'realised_margin',
] as const;

/** One CSV row per order (documented fields, `cost`, payout once paid); every cell neutralised. */
export function ordersCsv(
  orders: readonly Order[],
  costOf: (inventoryItemId: string) => string | undefined,
  zone = Intl.DateTimeFormat().resolvedOptions().timeZone,
): string {
  // Times in the seller's zone and statuses in words, as the pages write them.
  const time = (iso: string | null | undefined) => (iso ? csvTime(iso, zone) : '');
  const words = (code: string | null | undefined) => (code ? humanize(code) : '');
  const records = orders.map((order) => {
    const line = order.line_items?.[0];
    const money = orderMoney(order);
    const cost = line ? costOf(line.inventory_item_id) : undefined;
    const paidCents = money.netIsPaid ? money.netCents : undefined;
    // Every cell the order did not show (or we could not read) is blank, never a guess.
    return [
      order.name ?? '',
      order.id,
      time(order.svc_sold_at),
      words(orderStatusOf(order)),
      words(order.financial_status),
      line?.title ?? '',
      line?.sku ?? '',
      line?.product_id ?? '',
      line?.inventory_item_id ?? '',
      order.subtotal_price ?? '',
      order.total_tax ?? '',
      order.svc_payout?.platform_fee ?? '',
      order.total_refunded ?? '',
      words(order.svc_payout?.status),
      paidCents === undefined ? '' : formatCents(paidCents),
      time(order.svc_payout?.paid_at),
      cost ?? '',
      paidCents !== undefined && cost !== undefined
        ? formatCents(paidCents - (centsOf(cost) ?? 0))
        : '',
    ];
  });
  return toCsv([[...ORDER_CSV_COLUMNS], ...records]);
}
