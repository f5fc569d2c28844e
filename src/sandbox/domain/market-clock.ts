import { changeListing, type MarketContext } from './listings';
import { HOUR_MS } from '../platform/time';

/** What the clock makes due: scheduled listings go live, ended windows renew or expire. */
export function runMarketplaceClock(ctx: MarketContext): void {
  const { store, now } = ctx;
  for (const row of store.listings.scheduledDueBy(now)) {
    const goLive = row.scheduled_go_live_at ?? now;
    store.transaction(() => {
      changeListing(ctx, row.id, {
        status: 'active',
        unavailable_reason: null,
        listed_at: goLive,
        window_ends_at: goLive + row.duration_hours * HOUR_MS,
        scheduled_go_live_at: null,
      });
    });
  }
  for (const row of store.listings.windowsEndedBy(now)) {
    store.transaction(() => {
      if (row.auto_relist === 1) {
        const length = row.duration_hours * HOUR_MS;
        let ends = row.window_ends_at ?? now;
        while (ends <= now) ends += length;
        store.listings.update(row.id, { window_ends_at: ends, updated_at: now });
        return;
      }
      changeListing(ctx, row.id, {
        status: 'archived',
        unavailable_reason: 'expired',
        window_ends_at: null,
      });
    });
  }
}
