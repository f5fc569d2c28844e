import type { OrderFacts as Order } from './sales-queries';
import { toCents } from './money';

/**
 * What one order is worth to the seller, from the order's documented fields only: the sale is
 * `subtotal_price` (the line's price), the fee `svc_payout.platform_fee`, refunds `total_refunded`,
 * tax `total_tax` (collected for the buyer, not the seller's money). Net is what the payout will be
 * (sale − fee − refunds, never below zero); once paid, `svc_payout.amount` is the net itself.
 */
export interface OrderMoney {
  saleCents: number;
  feeCents: number;
  /** Undefined when the view did not give `total_tax` (the single view may not): never zero. */
  taxCents: number | undefined;
  refundedCents: number;
  /** The payout: `svc_payout.amount` when paid, else the expected sale − fee − refunds. */
  netCents: number;
  /** True when `netCents` is the paid amount rather than the expected one. */
  netIsPaid: boolean;
}

export function orderMoney(order: Order): OrderMoney {
  const saleCents = toCents(order.subtotal_price);
  const feeCents = toCents(order.svc_payout.platform_fee);
  const refundedCents = toCents(order.total_refunded);
  const paid = order.svc_payout.status === 'paid' && order.svc_payout.amount !== null;
  return {
    saleCents,
    feeCents,
    taxCents: order.total_tax === undefined ? undefined : toCents(order.total_tax),
    refundedCents,
    netCents: paid
      ? toCents(order.svc_payout.amount)
      : Math.max(0, saleCents - feeCents - refundedCents),
    netIsPaid: paid,
  };
}

/** Cancelled orders (`cancelled_at` set) earn nothing and are left out of every figure. */
export const isCounted = (order: Pick<Order, 'cancelled_at'>) => order.cancelled_at === null;

/** Awaiting the seller's shipment to the hub, per the order's own shipment status. */
export const awaitsShipment = (order: Order) =>
  isCounted(order) && order.svc_seller_shipment.status === 'pending_shipment';
