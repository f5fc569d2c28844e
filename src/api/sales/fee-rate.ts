import type { OrderFacts as Order } from './sales-queries';
import { centsOf, SIGNED } from '../../shared/money';

/** The promotion's extra seller fee (the spec's Limits: "extra 3% seller fee on sale"). */
export const PROMOTION_FEE_BP = 300;

export interface FeeRate {
  /** Basis points of the sale price (1200 = 12%). */
  basisPoints: number;
  /** How many paid orders it was learned from. */
  from: number;
}

/** The fee rate learned from paid-out orders: the most common rounded rate, ties to the lower. */
export function learnFeeRate(orders: readonly Order[]): FeeRate | undefined {
  const counts = new Map<number, number>();
  let from = 0;
  for (const order of orders) {
    if (order.cancelled_at !== null || order.svc_payout?.status !== 'paid') continue;
    // Learned only from orders that show both amounts: a missing one is not a zero.
    const sale = centsOf(order.subtotal_price, SIGNED);
    const fee = centsOf(order.svc_payout.platform_fee, SIGNED);
    if (sale === undefined || fee === undefined || sale <= 0) continue;
    const bp = Math.round((fee * 10_000) / sale);
    counts.set(bp, (counts.get(bp) ?? 0) + 1);
    from++;
  }
  let best: number | undefined;
  let bestCount = 0;
  for (const [bp, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== undefined && bp < best)) {
      best = bp;
      bestCount = count;
    }
  }
  return best === undefined ? undefined : { basisPoints: best, from };
}
