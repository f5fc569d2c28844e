import type { OrderFacts as Order } from './sales-queries';
import { knownCents } from './money';

/**
 * What an order is worth to the seller, from documented fields only: net = sale − fee − refunds
 * (never below zero), or the paid amount once paid; tax is the buyer's. A figure without what it
 * needs is undefined, never zero.
 */
export interface OrderMoney {
  saleCents: number | undefined;
  /** The fee the seller pays: none on a cancelled order or on one refunded to nothing. */
  feeCents: number | undefined;
  /** Why no fee is charged although the order names one (`platform_fee`). */
  feeWaived: 'cancelled' | 'refunded' | undefined;
  taxCents: number | undefined;
  refundedCents: number | undefined;
  /** The payout: `svc_payout.amount` when paid, else the expected sale − fee − refunds. */
  netCents: number | undefined;
  /** True when `netCents` is the paid amount rather than the expected one. */
  netIsPaid: boolean;
}

/**
 * The marketplace takes its fee out of the payout, so an order that pays nothing out (cancelled,
 * refunded in full, or paid out at $0.00 after a refund) pays no fee.
 */
function feeWaivedOf(order: Order, paidCents: number | undefined): OrderMoney['feeWaived'] {
  if (order.cancelled_at !== null && order.cancelled_at !== undefined) return 'cancelled';
  const paid = order.svc_payout?.status === 'paid';
  if (paid && paidCents === 0) return 'refunded';
  if (!paid && order.financial_status === 'refunded') return 'refunded';
  return undefined;
}

export function orderMoney(order: Order): OrderMoney {
  const saleCents = knownCents(order.subtotal_price);
  const listedFee = knownCents(order.svc_payout?.platform_fee);
  const refundedCents = knownCents(order.total_refunded);
  const paidCents = knownCents(order.svc_payout?.amount);
  const paid = order.svc_payout?.status === 'paid' && paidCents !== undefined;
  const feeWaived = feeWaivedOf(order, paidCents);
  const feeCents = feeWaived ? 0 : listedFee;
  const expected =
    saleCents === undefined || feeCents === undefined || refundedCents === undefined
      ? undefined
      : Math.max(0, saleCents - feeCents - refundedCents);
  return {
    saleCents,
    feeCents,
    feeWaived,
    taxCents: knownCents(order.total_tax),
    refundedCents,
    netCents: paid ? paidCents : expected,
    netIsPaid: paid,
  };
}

/** Cancelled orders earn nothing; one whose `cancelled_at` is not known is left out too. */
export const isCounted = (order: Pick<Order, 'cancelled_at'>) => order.cancelled_at === null;

/** Refunded in full and not paid out: nothing is coming, so it is no payout to wait for. */
export const isRefundedAway = (order: Pick<Order, 'financial_status' | 'svc_payout'>) =>
  order.financial_status === 'refunded' && order.svc_payout?.status !== 'paid';

/** Awaiting the seller's shipment to the hub, per the order's own shipment status. */
export const awaitsShipment = (order: Pick<Order, 'cancelled_at' | 'svc_seller_shipment'>) =>
  isCounted(order) && order.svc_seller_shipment?.status === 'pending_shipment';
