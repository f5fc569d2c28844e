import type { OrderFacts as Order } from '../../api/sales/sales-queries';
import { toCents } from '../../api/sales/money';
import { isCounted, orderMoney } from '../../api/sales/order-money';
import { compareCodes } from '../../api/compare-codes';

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
  /** How many payouts had an amount not shown (or not readable): left out of that sum only. */
  incomplete: number;
}

/** Paid payouts by month, newest first, placed only when shown paid and when. */
export function payoutsByMonth(
  orders: readonly Order[],
  costOf: (inventoryItemId: string) => string | undefined,
): PayoutMonth[] {
  const months = new Map<string, PayoutMonth>();
  for (const order of orders) {
    const payout = order.svc_payout;
    if (!isCounted(order) || payout?.status !== 'paid' || !payout.paid_at) continue;
    const month = payout.paid_at.slice(0, 7);
    const entry = months.get(month) ?? {
      month,
      payouts: 0,
      salesCents: 0,
      feesCents: 0,
      refundedCents: 0,
      paidCents: 0,
      marginCents: 0,
      withoutCost: 0,
      incomplete: 0,
    };
    const money = orderMoney(order);
    const { saleCents, feeCents, refundedCents, netCents } = money;
    entry.payouts++;
    if ([saleCents, feeCents, refundedCents, netCents].includes(undefined)) entry.incomplete++;
    entry.salesCents += saleCents ?? 0;
    entry.feesCents += feeCents ?? 0;
    entry.refundedCents += refundedCents ?? 0;
    entry.paidCents += netCents ?? 0;
    const line = order.line_items?.[0];
    const cost = line ? costOf(line.inventory_item_id) : undefined;
    if (cost === undefined || netCents === undefined) entry.withoutCost++;
    else entry.marginCents += netCents - toCents(cost);
    months.set(month, entry);
  }
  return [...months.values()].sort((a, b) => compareCodes(b.month, a.month));
}
