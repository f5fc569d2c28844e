import type { OrderFacts as Order } from '../../api/sales/sales-queries';
import { centsOf } from '../../shared/money';
import { isCounted, orderMoney } from '../../api/sales/order-money';
import {
  addToReconciliation,
  emptyReconciliation,
  type Reconciliation,
} from '../../api/sales/reconcile';
import { compareCodes } from '../../api/compare-codes';

export interface PayoutMonth extends Reconciliation {
  /** `YYYY-MM` of `svc_payout.paid_at` (UTC). */
  month: string;
  /** Sum of payout − cost over the payouts whose card cost is set. */
  marginCents: number;
  /** How many payouts had no cost set (left out of the margin). */
  withoutCost: number;
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
      ...emptyReconciliation(),
      month,
      marginCents: 0,
      withoutCost: 0,
    };
    addToReconciliation(entry, order);
    const netCents = orderMoney(order).netCents;
    const line = order.line_items?.[0];
    const cost = line ? costOf(line.inventory_item_id) : undefined;
    if (cost === undefined || netCents === undefined) entry.withoutCost++;
    else entry.marginCents += netCents - (centsOf(cost) ?? 0);
    months.set(month, entry);
  }
  return [...months.values()].sort((a, b) => compareCodes(b.month, a.month));
}
