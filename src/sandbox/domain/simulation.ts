import type { Scope } from '../store/rows';
import type { MarketContext } from './listings';
import { MarketError, advanceOrder, sellListing } from './marketplace';

/** One step of the living demo (SANDBOX_SIMULATE=1): a sale, or an open order moves on. */
export function simulateStep(
  ctx: MarketContext,
  sellerId: string,
  random: () => number = Math.random,
): void {
  const scope: Scope = { sellerId, test: false };
  if (!ctx.store.accounts.seller(sellerId)) return;
  const open = ctx.store.orders.openIds(scope);
  const live = ctx.store.listings.countLive(scope);
  try {
    if (live > 0 && (open.length === 0 || random() < 0.35)) {
      const listingId = ctx.store.listings.nthLive(scope, Math.floor(random() * live));
      if (listingId) {
        sellListing(ctx, listingId, random() < 0.8 ? 'checkout' : 'offer');
        return;
      }
    }
    const orderId = open[Math.floor(random() * open.length)];
    if (orderId) advanceOrder(ctx, orderId);
  } catch (error) {
    if (!(error instanceof MarketError)) throw error;
  }
}
