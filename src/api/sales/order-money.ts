import type { OrderFacts as Order } from './sales-queries';
import { centsOf, SIGNED } from '../../shared/money';

/** An order's worth to the seller from documented fields; a figure lacking inputs is undefined. */
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

/** The fee on what is left after refunds; a payout shown paid above $0.00 paid the whole fee. */
function feeCharged(
  order: Order,
  listed: number | undefined,
  sale: number | undefined,
  refunded: number | undefined,
  paid: number | undefined,
): { fee: number | undefined; waived: OrderMoney['feeWaived'] } {
  if (order.cancelled_at !== null && order.cancelled_at !== undefined)
    return { fee: 0, waived: 'cancelled' };
  if (listed === undefined || sale === undefined || refunded === undefined)
    return { fee: listed, waived: undefined };
  if (order.svc_payout?.status === 'paid' && paid !== undefined && paid > 0)
    return { fee: listed, waived: undefined };
  const fee = Math.min(listed, Math.max(0, sale - refunded));
  return { fee, waived: fee === 0 && listed > 0 ? 'refunded' : undefined };
}

export function orderMoney(order: Order): OrderMoney {
  const saleCents = centsOf(order.subtotal_price, SIGNED);
  const listedFee = centsOf(order.svc_payout?.platform_fee, SIGNED);
  const refundedCents = centsOf(order.total_refunded, SIGNED);
  const paidCents = centsOf(order.svc_payout?.amount, SIGNED);
  const paid = order.svc_payout?.status === 'paid' && paidCents !== undefined;
  const { fee: feeCents, waived: feeWaived } = feeCharged(
    order,
    listedFee,
    saleCents,
    refundedCents,
    paidCents,
  );
  const expected =
    saleCents === undefined || feeCents === undefined || refundedCents === undefined
      ? undefined
      : Math.max(0, saleCents - feeCents - refundedCents);
  return {
    saleCents,
    feeCents,
    feeWaived,
    taxCents: centsOf(order.total_tax, SIGNED),
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
