import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { startAppOver, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';

/**
 * An upstream that lists a card's inventory level at each of its two locations (the spec keys a
 * level by `inventory_item_id` and `location_id`, and does not say a card has one), the seller's
 * page first, then the vault's: the walk read the vault's page as records already read, stopped
 * it as a loop, and the replica's levels were never filled (tried again every round). A card's
 * levels are now told apart by their location; its row is its newest level.
 */
let upstream: FakeUpstream;
let app: RunningAppServer;
const level = (item: string, location: string, available: number, at: string) => ({
  inventory_item_id: item,
  location_id: location,
  available,
  updated_at: at,
});
const PAGES = [
  [
    level('itm_1', 'loc_seller_1', 0, '2026-07-01T00:00:00.000Z'),
    level('itm_2', 'loc_seller_1', 0, '2026-07-01T00:00:00.000Z'),
  ],
  [
    level('itm_1', 'loc_vault', 1, '2026-07-02T00:00:00.000Z'),
    level('itm_2', 'loc_vault', 1, '2026-07-02T00:00:00.000Z'),
  ],
];

beforeAll(async () => {
  upstream = await startFakeUpstream((req, res) => {
    const url = new URL(req.url ?? '/', upstream.url);
    const collection = /\/2026-07\/(\w+)\.json$/.exec(url.pathname)?.[1] ?? '';
    const page = Number(url.searchParams.get('page_info') ?? '0');
    const rows = collection === 'inventory_levels' ? PAGES[page] : [];
    const next = collection === 'inventory_levels' && page === 0;
    res
      .writeHead(200, {
        'content-type': 'application/json',
        ...(next ? { link: `<${upstream.url}${url.pathname}?page_info=1>; rel="next"` } : {}),
      })
      .end(JSON.stringify({ [collection]: rows }));
  });
  app = await startAppOver(upstream.url, 'svc_live_LevelsKey00000000000000001');
});

afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

describe('levels of one card at two locations', () => {
  it('fill the levels, each card’s row its newest level', async () => {
    await app.replica.ready();
    expect(app.replica.store.row('inventory_levels', 'itm_1')?.body).toMatchObject({
      location_id: 'loc_vault',
      available: 1,
    });
    expect(app.replica.store.count('inventory_levels')).toBe(2);
  });
});
