import type { RunningSandbox } from '../../src/sandbox';
import { createInventoryItem } from '../../src/sandbox/domain/inventory';
import { insertListing } from '../../src/sandbox/domain/listings';
import { randomIds } from '../../src/sandbox/domain/ids';

/**
 * Puts `count` live listings straight into a running sandbox's store through the same domain
 * functions the API uses (set-up only; every assertion then goes over HTTP).
 */
export function addListings(
  sandbox: RunningSandbox,
  sellerId: string,
  count: number,
  options: { test?: boolean; titlePrefix?: string; priceCents?: number } = {},
): string[] {
  const { store, clock } = sandbox.context;
  const scope = { sellerId, test: options.test ?? false };
  const ids: string[] = [];
  store.transaction(() => {
    for (let i = 0; i < count; i++) {
      const now = clock.now();
      const item = createInventoryItem(store, randomIds, now, scope, {
        cert_number: `${90000000 + Math.floor(Math.random() * 9999999)}`,
        grader: 'PSA',
        grade: '9',
        title: `${options.titlePrefix ?? 'Card'} ${i}`,
        player: 'Test Player',
        year: 2020,
        set: 'Test Set',
        category: 'baseball',
      });
      const listing = insertListing(
        store,
        randomIds,
        now,
        scope,
        [item.id],
        { title: `${options.titlePrefix ?? 'Card'} ${i}`, price_cents: options.priceCents ?? 2500 },
        { kind: 'live' },
      );
      ids.push(listing.id);
    }
  });
  return ids;
}
