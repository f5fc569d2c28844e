import type { Scope } from '../store/rows';
import type { MarketContext } from './listings';
import { MarketError, advanceOrder, sellListing } from './marketplace';

export type SimulatedAction =
  | { kind: 'sale'; listingId: string; orderId: string }
  | { kind: 'advance'; orderId: string; stage: number }
  | { kind: 'idle' };

/** One step of the living demo (SANDBOX_SIMULATE=1): a sale, or an open order moves on. */
export function simulateStep(
  ctx: MarketContext,
  sellerId: string,
  random: () => number = Math.random,
): SimulatedAction {
  const scope: Scope = { sellerId, test: false };
  if (!ctx.store.accounts.seller(sellerId)) return { kind: 'idle' };
  const open = ctx.store.orders.openIds(scope);
  const live = ctx.store.listings.countLive(scope);
  try {
    if (live > 0 && (open.length === 0 || random() < 0.35)) {
      const listingId = ctx.store.listings.nthLive(scope, Math.floor(random() * live));
      if (listingId) {
        const order = sellListing(ctx, listingId, random() < 0.8 ? 'checkout' : 'offer');
        return { kind: 'sale', listingId, orderId: order.id };
      }
    }
    const orderId = open[Math.floor(random() * open.length)];
    if (orderId) {
      const order = advanceOrder(ctx, orderId);
      return { kind: 'advance', orderId, stage: order.stage };
    }
  } catch (error) {
    if (!(error instanceof MarketError)) throw error;
  }
  return { kind: 'idle' };
}
