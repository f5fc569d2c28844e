import type { OrderFacts as Order } from './sales-queries';
import { knownCents } from './money';

/**
 * What one order is worth to the seller, from the order's documented fields only: the sale is
 * `subtotal_price` (the line's price), the fee `svc_payout.platform_fee`, refunds `total_refunded`,
 * tax `total_tax` (collected for the buyer, not the seller's money). Net is what the payout will be
 * (sale − fee − refunds, never below zero); once paid, `svc_payout.amount` is the net itself.
 * Each figure is undefined when the view did not give (or could not be read for) what it needs:
 * never a zero in its place.
 */
export interface OrderMoney {
  saleCents: number | undefined;
  feeCents: number | undefined;
  taxCents: number | undefined;
  refundedCents: number | undefined;
  /** The payout: `svc_payout.amount` when paid, else the expected sale − fee − refunds. */
  netCents: number | undefined;
  /** True when `netCents` is the paid amount rather than the expected one. */
  netIsPaid: boolean;
}

export function orderMoney(order: Order): OrderMoney {
  const saleCents = knownCents(order.subtotal_price);
  const feeCents = knownCents(order.svc_payout?.platform_fee);
  const refundedCents = knownCents(order.total_refunded);
  const paidCents = knownCents(order.svc_payout?.amount);
  const paid = order.svc_payout?.status === 'paid' && paidCents !== undefined;
  const expected =
    saleCents === undefined || feeCents === undefined || refundedCents === undefined
      ? undefined
      : Math.max(0, saleCents - feeCents - refundedCents);
  return {
    saleCents,
    feeCents,
    taxCents: knownCents(order.total_tax),
    refundedCents,
    netCents: paid ? paidCents : expected,
    netIsPaid: paid,
  };
}

/**
 * Cancelled orders (`cancelled_at` set) earn nothing and are left out of every figure; so is an
 * order whose `cancelled_at` was not shown or not readable (whether it counts is not known).
 */
export const isCounted = (order: Pick<Order, 'cancelled_at'>) => order.cancelled_at === null;

/** Awaiting the seller's shipment to the hub, per the order's own shipment status. */
export const awaitsShipment = (order: Pick<Order, 'cancelled_at' | 'svc_seller_shipment'>) =>
  isCounted(order) && order.svc_seller_shipment?.status === 'pending_shipment';
