import type { OrderFacts as Order } from './sales-queries';
import { orderMoney } from './order-money';

/** Sales − fees − refunds against what was paid out, the difference per cause; parts add up. */
export interface Reconciliation {
  orders: number;
  salesCents: number;
  feesCents: number;
  refundedCents: number;
  /** Paid (or expected) payouts. */
  payoutCents: number;
  /** Refunds larger than the sale less its fee (the buyer's tax refunded too): payouts stop at $0.00. */
  beyondSaleCents: number;
  /** Refunds made after the payout was released: paid out before they were taken back. */
  refundedAfterPayoutCents: number;
  /** Whatever else the payout differs by: the marketplace's adjustments. */
  adjustmentCents: number;
  /** Orders with an amount not shown or not readable: left out of every sum. */
  incomplete: number;
}

export const emptyReconciliation = (): Reconciliation => ({
  orders: 0,
  salesCents: 0,
  feesCents: 0,
  refundedCents: 0,
  payoutCents: 0,
  beyondSaleCents: 0,
  refundedAfterPayoutCents: 0,
  adjustmentCents: 0,
  incomplete: 0,
});

/** Adds one order to a reconciliation in place. */
export function addToReconciliation(sum: Reconciliation, order: Order): void {
  const money = orderMoney(order);
  const { saleCents: sale, feeCents: fee, refundedCents: refunded, netCents: payout } = money;
  if (sale === undefined || fee === undefined || refunded === undefined || payout === undefined) {
    sum.incomplete++;
    return;
  }
  sum.orders++;
  sum.salesCents += sale;
  sum.feesCents += fee;
  sum.refundedCents += refunded;
  sum.payoutCents += payout;
  const owed = sale - fee - refunded;
  const difference = payout - owed;
  if (difference === 0) return;
  if (payout === 0 && owed < 0) sum.beyondSaleCents += difference;
  else if (money.netIsPaid && refunded > 0 && difference > 0 && difference <= refunded) {
    // Paid out as sale − fee, then refunded: the refund came after the payout.
    sum.refundedAfterPayoutCents += difference;
  } else sum.adjustmentCents += difference;
}

export function reconcile(orders: Iterable<Order>): Reconciliation {
  const sum = emptyReconciliation();
  for (const order of orders) addToReconciliation(sum, order);
  return sum;
}

/** Sales − fees − refunds: what the orders owe before the differences. */
export const owedCents = (sum: Reconciliation) =>
  sum.salesCents - sum.feesCents - sum.refundedCents;

/** True when owed + every difference = the payouts (always, by construction; tests hold it). */
export const reconciles = (sum: Reconciliation) =>
  owedCents(sum) + sum.beyondSaleCents + sum.refundedAfterPayoutCents + sum.adjustmentCents ===
  sum.payoutCents;
