// idb recognises requests by the global IndexedDB classes: fake-indexeddb's, installed here.
import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client';
import { KeptDb } from '../../src/api/kept/kept-db';
import { keepCopies, keptOptions } from '../../src/api/kept/kept-persister';
import { keptQueryFn } from '../../src/api/kept/kept-query';
import { noteSellerAsked } from '../../src/api/kept/seller-asked';
import { keptListings } from '../../src/api/listings/catalogue-query';
import { keptOrders, orderStatusOf } from '../../src/api/orders/order-queries';
import {
  inventoryLevelsQuery,
  keptInventoryItems,
  type KeptLevel,
} from '../../src/api/inventory/inventory-queries';
import type { Kept, KeptSource } from '../../src/api/kept/kept-sync';
import type { SlabdeskClient } from '../../src/client';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import type { RunningAppServer } from '../../src/server/app-server';
import { startServer, type World } from '../rules/rules-world';
import { startHarness } from '../support/sandbox-harness';
import { useDemoHub } from '../support/demo-hub';

/**
 * The kept collections of a browser, read from the hub's replica over HTTP (a real sandbox behind
 * a real Slabdesk server), on fake-indexeddb: each "visit" is a new client and QueryClient over a
 * database, as a reload of the page is; a new database is a second device. Every request the
 * sandbox receives is an upstream call: a browser's sync spends none.
 */
const demo = useDemoHub({ demoListings: 300 });
/** Upstream calls, counted at the sandbox's HTTP server. */
let upstream = 0;
beforeAll(() => {
  demo.harness.sandbox.app.server.on('request', () => upstream++);
});

/** The kept collections of one visit (as the app's QueryClient keeps them into `db`). */
function visit(db: KeptDb, on: RunningAppServer = demo.server) {
  const client: SlabdeskClient = createClient({ baseUrl: `${on.url}/api` });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const copies = keepCopies(queryClient, db);
  const kept = <T extends { id: string }>(collection: string, source: KeptSource<T>) => {
    const queryKey: QueryKey = ['kept', collection];
    const queryFn = keptQueryFn(queryClient, queryKey, source, { db });
    return {
      sync: () =>
        queryClient.fetchQuery({ queryKey, queryFn, staleTime: 0, ...keptOptions(collection) }),
      save: () => copies.flush(),
      rows: () => queryClient.getQueryData<Kept<T>>(queryKey)?.rows ?? [],
      subscribe: (listener: () => void) => queryClient.getQueryCache().subscribe(listener),
    };
  };
  return {
    client,
    queryClient,
    listings: kept('listings', keptListings(client)),
    orders: kept('orders', keptOrders(client)),
    items: kept('inventory-items', keptInventoryItems(client)),
  };
}

/** What `work` cost at the upstream. */
async function spent<T>(work: () => Promise<T>): Promise<{ value: T; calls: number }> {
  const before = upstream;
  const value = await work();
  return { value, calls: upstream - before };
}

const newDb = () => new KeptDb(new IDBFactory(), IDBKeyRange);

describe('the kept catalogue, from the hub', () => {
  it('a first visit, a reload and a second device cost no upstream call', async () => {
    const db = newDb();
    const first = visit(db);
    const { value: walked, calls: firstCalls } = await spent(() => first.listings.sync());
    expect(walked.complete).toBe(true);
    expect(walked.origin).toBe('walk');
    expect(walked.rows).toHaveLength(demo.server.replica.store.count('listings'));
    expect(walked.rows.length).toBeGreaterThanOrEqual(300);
    expect(firstCalls).toBe(0);
    await first.listings.save();

    const { value: reloaded, calls: reloadCalls } = await spent(() => visit(db).listings.sync());
    expect(reloaded.origin).toBe('kept');
    expect(reloaded.rows).toEqual(walked.rows);
    expect(reloaded.lastChanged).toBe(0);
    expect(reloadCalls).toBe(0);

    const { value: second, calls: secondCalls } = await spent(() => visit(newDb()).listings.sync());
    expect(second.origin).toBe('walk');
    expect(second.rows.map((row) => row.id)).toEqual(walked.rows.map((row) => row.id));
    expect(secondCalls).toBe(0);
  });

  it('a change made elsewhere reaches every device from the hub’s one read of it', async () => {
    const phone = newDb();
    const desk = newDb();
    const listings = await visit(phone).listings.sync();
    await visit(desk).listings.sync();
    const edited = listings.rows.find((row) => row.status === 'active')!;
    const price = (Number(edited.price) + 1).toFixed(2);
    // Elsewhere: another tool of the seller changes a price.
    const put = await demo.harness.api(`/listings/${edited.id}.json`, {
      token: DEMO_LIVE_TOKEN,
      method: 'PUT',
      body: { listing: { price } },
    });
    expect(put.status).toBe(200);
    // The hub's reconciliation: one read for the deployment, whatever the number of devices.
    const { calls: roundCalls } = await spent(() => demo.server.replica.round());
    expect(roundCalls).toBeGreaterThan(0);

    for (const db of [phone, desk]) {
      const { value: now, calls } = await spent(() => visit(db).listings.sync());
      expect(now.rows.find((row) => row.id === edited.id)!.price).toBe(price);
      expect(now.lastChanged).toBeGreaterThanOrEqual(1);
      expect(calls).toBe(0);
    }
  });

  it('a record the marketplace sends degraded is left out and reported on every device until read whole', async () => {
    const db = newDb();
    const first = visit(db);
    const walked = await first.listings.sync();
    await first.listings.save();
    const victim = walked.rows.find((row) => row.status === 'active')!;
    const setPrice = async (price: string) => {
      const put = await demo.harness.api(`/listings/${victim.id}.json`, {
        token: DEMO_LIVE_TOKEN,
        method: 'PUT',
        body: { listing: { price } },
      });
      expect(put.status).toBe(200);
    };
    await setPrice('41.00');
    await demo.harness.control('PUT', '/faults', { degraded_ids: [victim.id] });
    await demo.server.replica.round();

    // A reload, and a second device, both say it; the next rounds do not bring it (unchanged)...
    const reloaded = await visit(db).listings.sync();
    expect(reloaded.origin).toBe('kept');
    expect(reloaded.rows.some((row) => row.id === victim.id)).toBe(false);
    expect(reloaded.setAside.map((record) => [record.id, record.kind])).toEqual([
      [victim.id, 'degraded'],
    ]);
    await demo.harness.control('POST', '/clock', { advance_seconds: 60 });
    await demo.server.replica.round();
    for (const device of [db, newDb()]) {
      const now = await visit(device).listings.sync();
      expect(now.setAside.map((record) => record.id)).toEqual([victim.id]);
      expect(now.rows.some((row) => row.id === victim.id)).toBe(false);
      expect(now.rows).toHaveLength(walked.rows.length - 1);
    }

    // ...until it comes whole again: back in the rows, no longer set aside.
    await demo.harness.control('PUT', '/faults', { degraded_ids: [] });
    await setPrice('42.00');
    await demo.server.replica.round();
    const whole = await visit(db).listings.sync();
    expect(whole.setAside).toEqual([]);
    expect(whole.rows).toHaveLength(walked.rows.length);
    expect(whole.rows.find((row) => row.id === victim.id)!.price).toBe('42.00');
  });
});

describe('a copy of another store', () => {
  it('a store reset the hub noticed replaces the kept copy whole, never mixed', async () => {
    const own = await startHarness({ seed: 'demo', demoListings: 60 });
    const ownWorld: World = {
      ...demo.world,
      harness: own,
      folder: mkdtempSync(join(tmpdir(), 'k-')),
    };
    const ownServer = await startServer(ownWorld);
    try {
      await ownServer.replica.ready();
      const db = newDb();
      const before = visit(db, ownServer);
      const kept = await before.listings.sync();
      const changed = kept.rows.find((row) => row.status === 'active')!;
      await own.api(`/listings/${changed.id}.json`, {
        token: DEMO_LIVE_TOKEN,
        method: 'PUT',
        body: { listing: { title: 'Only in the old store' } },
      });
      await ownServer.replica.round();
      await before.listings.sync();
      await before.listings.save();

      // The same deterministic ids come back, with other times: the same key, another store.
      await own.control('POST', '/clock', { advance_seconds: 60 });
      expect((await own.control('POST', '/reset', { seed: 'demo' })).status).toBe(200);
      await ownServer.replica.round();
      const after = visit(db, ownServer);
      const shown: boolean[] = [];
      after.listings.subscribe(() => {
        shown.push(after.listings.rows().some((row) => row.title === 'Only in the old store'));
      });
      const rebuilt = await after.listings.sync();
      expect(rebuilt.origin).toBe('walk');
      expect(rebuilt.rebuiltBecause).toMatch(/reset|another/);
      expect(rebuilt.rows.some((row) => row.title === 'Only in the old store')).toBe(false);
      expect(rebuilt.rows.length).toBeGreaterThanOrEqual(60);
      // The old copy was never shown: the hub said it was another epoch's before any row showed.
      expect(shown.every((old) => !old)).toBe(true);
    } finally {
      await ownServer.close();
      await own.close();
    }
  });
});

describe('the kept orders and cards', () => {
  it('orders come noted open or not by the hub, and a sale elsewhere reaches a reload', async () => {
    const db = newDb();
    const first = visit(db);
    const { value: orders, calls } = await spent(() => first.orders.sync());
    expect(calls).toBe(0);
    expect(orders.complete).toBe(true);
    expect(orders.rows.length).toBeGreaterThan(50);
    // Every order is placed under a filter: by its timestamps, or by the hub's note.
    expect(orders.rows.filter((order) => orderStatusOf(order) === undefined)).toEqual([]);
    const open = await demo.harness.api('/orders.json?status=open&limit=250&fields=id', {
      token: DEMO_LIVE_TOKEN,
    });
    const openIds = ((await open.json()) as { orders: { id: string }[] }).orders.map((o) => o.id);
    expect(
      orders.rows
        .filter((order) => orderStatusOf(order) === 'open')
        .map((order) => order.id)
        .sort(),
    ).toEqual(openIds.sort());
    await first.orders.save();

    const active = (await first.listings.sync()).rows.find((row) => row.status === 'active')!;
    const sale = await demo.harness.control<{ order: { id: string } }>(
      'POST',
      `/listings/${active.id}/sell`,
      {},
    );
    expect(sale.status).toBe(200);
    await demo.server.replica.round();
    const { value: reloaded, calls: reloadCalls } = await spent(() => visit(db).orders.sync());
    expect(reloadCalls).toBe(0);
    expect(reloaded.origin).toBe('kept');
    const sold = reloaded.rows.find((order) => order.id === sale.body.order.id);
    expect(sold).toBeDefined();
    expect(orderStatusOf(sold!)).toBe('open');
    expect(reloaded.rows).toHaveLength(orders.rows.length + 1);
  });

  it('cards and their levels come from the hub, each level keyed by its card', async () => {
    const v = visit(newDb());
    const { value: items, calls } = await spent(() => v.items.sync());
    expect(calls).toBe(0);
    expect(items.rows).toHaveLength(demo.server.replica.store.count('inventory_items'));
    const levels = await v.queryClient.fetchQuery(inventoryLevelsQuery(v.client, v.queryClient));
    const level: KeptLevel = levels.rows[0]!;
    expect(level.id).toBe(level.inventory_item_id);
    expect(levels.rows).toHaveLength(demo.server.replica.store.count('inventory_levels'));
  });
});

describe('the kept database', () => {
  it('adds its stores to a database of its name made without them, and keeps a copy there', async () => {
    const factory = new IDBFactory();
    // A probe opened the database by name before the page first wrote: version 1, no stores.
    await new Promise<void>((resolve, reject) => {
      const req = factory.open('slabdesk-kept');
      req.onsuccess = () => {
        req.result.close();
        resolve();
      };
      req.onerror = () => reject(req.error);
    });
    const first = visit(new KeptDb(factory, IDBKeyRange));
    const walked = await first.listings.sync();
    await first.listings.save();
    const reloaded = await visit(new KeptDb(factory, IDBKeyRange)).listings.sync();
    expect(reloaded.origin).toBe('kept');
    expect(reloaded.rows).toEqual(walked.rows);
  });
});

// Last: the seller's click counts as asked for a moment, for any list read in it.
describe('a seller’s refresh', () => {
  it('a seller’s refresh asks the hub for one read of the marketplace, shared by every tab asking', async () => {
    const a = visit(newDb());
    const b = visit(newDb());
    await Promise.all([a.listings.sync(), b.listings.sync()]);
    const edited = a.listings.rows().find((row) => row.status === 'active')!;
    await demo.harness.api(`/listings/${edited.id}.json`, {
      token: DEMO_LIVE_TOKEN,
      method: 'PUT',
      body: { listing: { title: 'Renamed elsewhere' } },
    });
    const { calls } = await spent(() =>
      Promise.all([(noteSellerAsked(), a.listings.sync()), (noteSellerAsked(), b.listings.sync())]),
    );
    for (const tab of [a, b]) {
      expect(tab.listings.rows().find((row) => row.id === edited.id)!.title).toBe(
        'Renamed elsewhere',
      );
    }
    // One reconciliation read of listings (a page or two), not one per tab.
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThanOrEqual(2);
  });
});
