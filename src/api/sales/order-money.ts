import type { OrderFacts as Order } from './sales-queries';
import { knownCents } from './money';

/**
 * What an order is worth to the seller, from documented fields only: net = sale − fee − refunds
 * (never below zero), or the paid amount once paid; tax is the buyer's. A figure without what it
 * needs is undefined, never zero.
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

/** Cancelled orders earn nothing; one whose `cancelled_at` is not known is left out too. */
export const isCounted = (order: Pick<Order, 'cancelled_at'>) => order.cancelled_at === null;

/** Awaiting the seller's shipment to the hub, per the order's own shipment status. */
export const awaitsShipment = (order: Pick<Order, 'cancelled_at' | 'svc_seller_shipment'>) =>
  isCounted(order) && order.svc_seller_shipment?.status === 'pending_shipment';
