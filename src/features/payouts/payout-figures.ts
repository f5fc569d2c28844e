import type { OrderFacts as Order } from '../../lib/sales/sales-queries';
import { toCents } from '../../lib/sales/money';
import { isCounted, orderMoney } from '../../lib/sales/order-money';
import { compareCodes } from '../../lib/compare-codes';

export interface PayoutMonth {
  /** `YYYY-MM` of `svc_payout.paid_at` (UTC). */
  month: string;
  payouts: number;
  salesCents: number;
  feesCents: number;
  refundedCents: number;
  paidCents: number;
  /** Sum of payout − cost over the payouts whose card cost is known. */
  marginCents: number;
  /** How many payouts had no known cost (left out of the margin). */
  withoutCost: number;
}

/** Paid payouts by the month they were paid, newest month first. */
export function payoutsByMonth(
  orders: readonly Order[],
  costOf: (inventoryItemId: string) => string | undefined,
): PayoutMonth[] {
  const months = new Map<string, PayoutMonth>();
  for (const order of orders) {
    if (!isCounted(order) || order.svc_payout.status !== 'paid' || !order.svc_payout.paid_at) {
      continue;
    }
    const month = order.svc_payout.paid_at.slice(0, 7);
    const entry = months.get(month) ?? {
      month,
      payouts: 0,
      salesCents: 0,
      feesCents: 0,
      refundedCents: 0,
      paidCents: 0,
      marginCents: 0,
      withoutCost: 0,
    };
    const money = orderMoney(order);
    entry.payouts++;
    entry.salesCents += money.saleCents;
    entry.feesCents += money.feeCents;
    entry.refundedCents += money.refundedCents;
    entry.paidCents += money.netCents;
    const line = order.line_items[0];
    const cost = line ? costOf(line.inventory_item_id) : undefined;
    if (cost === undefined) entry.withoutCost++;
    else entry.marginCents += money.netCents - toCents(cost);
    months.set(month, entry);
  }
  return [...months.values()].sort((a, b) => compareCodes(b.month, a.month));
}
