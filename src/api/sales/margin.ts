import { PROMOTION_FEE_BP, type FeeRate } from './fee-rate';
import { centsOf } from '../../shared/money';

export interface MarginEstimate {
  /** The fee at the learned rate (+3% when the listing is known to be promoted). */
  feeCents: number;
  /** Price − fee: what the seller would be paid if it sold at this price. */
  netCents: number;
  /** Net − cost; undefined when the card's cost is not known. */
  marginCents: number | undefined;
  /** True when the promotion's 3% is included (only where the server says it is promoted). */
  promotedFee: boolean;
  /** The lowest price whose net covers the cost (break-even), in cents. */
  breakEvenCents: number | undefined;
}

/** Net if sold and margin against cost; `promoted` undefined counts as not, and says so. */
export function estimateMargin(
  price: string | number,
  rate: FeeRate,
  cost: string | undefined,
  promoted: boolean | undefined,
): MarginEstimate {
  const priceCents = centsOf(price) ?? 0;
  const bp = rate.basisPoints + (promoted === true ? PROMOTION_FEE_BP : 0);
  const feeCents = Math.round((priceCents * bp) / 10_000);
  const netCents = priceCents - feeCents;
  const costCents = cost === undefined ? undefined : (centsOf(cost) ?? 0);
  return {
    feeCents,
    netCents,
    marginCents: costCents === undefined ? undefined : netCents - costCents,
    promotedFee: promoted === true,
    breakEvenCents: costCents === undefined ? undefined : breakEven(costCents, bp),
  };
}

/** The lowest price in cents whose net (price − its rounded fee) is at least the cost. */
function breakEven(costCents: number, bp: number): number {
  let price = Math.max(0, Math.floor((costCents * 10_000) / (10_000 - bp)) - 1);
  while (price - Math.round((price * bp) / 10_000) < costCents) price++;
  return price;
}
