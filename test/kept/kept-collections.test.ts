// idb recognises requests by the global IndexedDB classes: fake-indexeddb's, installed here.
import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type ResponseMeta } from '../../src/client';
import { KeptDb } from '../../src/api/kept/kept-db';
import { keepCopies, keptOptions } from '../../src/api/kept/kept-persister';
import { keptQueryFn } from '../../src/api/kept/kept-query';
import { keptListings } from '../../src/api/listings/catalogue-query';
import { keptOrders } from '../../src/api/orders/order-queries';
import { keptInventoryItems } from '../../src/api/inventory/inventory-queries';
import type { Kept, KeptSource } from '../../src/api/kept/kept-sync';
import type { SlabdeskClient } from '../../src/client';
import { DEMO_LIVE_TOKEN, DEMO_TEST_TOKEN } from '../../src/sandbox';
import { startHarness, type Harness } from '../support/sandbox-harness';

/**
 * The kept collections against a real sandbox over HTTP, on fake-indexeddb (a complete
 * IndexedDB in memory): each "visit" is a new client and QueryClient over the same database,
 * as a reload of the page is.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: 'demo', demoListings: 300 });
});
afterAll(() => h.close());

/**
 * The kept collections of one visit: each a query of a new QueryClient whose copies follow it
 * into `db` (as the app's QueryClient does); `save` writes what is pending at once.
 */
function createKeptSources(client: SlabdeskClient, db: KeptDb) {
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
      /** A live patch, as the pages make one: the query's data with one row replaced. */
      patch: (id: string, change: (row: T) => T) =>
        queryClient.setQueryData<Kept<T>>(
          queryKey,
          (kept) =>
            kept && { ...kept, rows: kept.rows.map((row) => (row.id === id ? change(row) : row)) },
        ),
      subscribe: (listener: () => void) => queryClient.getQueryCache().subscribe(listener),
    };
  };
  return {
    listings: kept('listings', keptListings(client, queryClient)),
    orders: kept('orders', keptOrders(client, queryClient)),
    items: kept('inventory-items', keptInventoryItems(client, queryClient)),
  };
}

function visit(db: KeptDb, token = DEMO_LIVE_TOKEN, fetchImpl?: typeof fetch) {
  const requests: string[] = [];
  const client = createClient({
    baseUrl: h.url,
    apiKey: token,
    onResponse: (meta: ResponseMeta) => requests.push(new URL(meta.url).pathname),
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  const sources = createKeptSources(client, db);
  const rows = (path: string) => requests.filter((p) => p.endsWith(path));
  const collectionRequests = (path: string) => rows(path).length;
  return { client, sources, requests, rows, collectionRequests };
}

async function firstVisit(db: KeptDb, token = DEMO_LIVE_TOKEN) {
  const first = visit(db, token);
  const listings = await first.sources.listings.sync();
  expect(listings.complete).toBe(true);
  expect(listings.origin).toBe('walk');
  await first.sources.listings.save();
  return { first, listings };
}

describe('the kept catalogue', () => {
  it('a reload shows the kept rows with one incremental read, and edits made elsewhere', async () => {
    const db = new KeptDb(new IDBFactory(), IDBKeyRange);
    const { listings } = await firstVisit(db);
    const edited = listings.rows.find((row) => row.status === 'active')!;
    const price = (Number(edited.price) + 1).toFixed(2);
    // Elsewhere: another tool of the seller changes a price.
    const put = await h.api(`/listings/${edited.id}.json`, {
      token: DEMO_LIVE_TOKEN,
      method: 'PUT',
      body: { listing: { price } },
    });
    expect(put.status).toBe(200);

    const again = visit(db);
    const reloaded = await again.sources.listings.sync();
    expect(reloaded.origin).toBe('kept');
    expect(reloaded.rows).toHaveLength(listings.rows.length);
    expect(reloaded.rows.find((row) => row.id === edited.id)!.price).toBe(price);
    expect(reloaded.lastChanged).toBeGreaterThanOrEqual(1);
    expect(reloaded.checkedAt).toBeGreaterThan(0);
    // The store's check (its oldest row: once a browser session) and the incremental read.
    expect(again.collectionRequests('/listings.json')).toBe(2);
  });

  it('a sandbox reset between visits rebuilds the kept catalogue instead of mixing stores', async () => {
    const own = await startHarness({ seed: 'demo', demoListings: 60 });
    try {
      const db = new KeptDb(new IDBFactory(), IDBKeyRange);
      const make = () => {
        const client = createClient({ baseUrl: own.url, apiKey: DEMO_LIVE_TOKEN });
        return createKeptSources(client, db);
      };
      const before = make();
      const kept = await before.listings.sync();
      const oldest = kept.rows[0]!;
      // A change only the old store has: it must not survive the reset.
      const changed = kept.rows.find((row) => row.status === 'active')!;
      await own.api(`/listings/${changed.id}.json`, {
        token: DEMO_LIVE_TOKEN,
        method: 'PUT',
        body: { listing: { title: 'Only in the old store' } },
      });
      await before.listings.sync();
      await before.listings.save();

      // The same deterministic ids come back, with other times: the same key, another store.
      await own.control('POST', '/clock', { advance_seconds: 60 });
      expect((await own.control('POST', '/reset', { seed: 'demo' })).status).toBe(200);
      const after = make();
      const rebuilt = await after.listings.sync();
      expect(rebuilt.origin).toBe('walk');
      expect(rebuilt.rebuiltBecause).toMatch(/reset|no longer matches/);
      expect(rebuilt.rows[0]!.id).toBe(oldest.id);
      expect(rebuilt.rows[0]!.created_at).not.toBe(oldest.created_at);
      expect(rebuilt.rows.some((row) => row.title === 'Only in the old store')).toBe(false);

      // Emptied without a seed: the kept rows are dropped, none shown.
      await after.listings.save();
      expect((await own.control('POST', '/reset', { seed: 'none' })).status).toBe(200);
      // No seller any more: the demo key is gone, so the copy is not this key's.
      const empty = make();
      await expect(empty.listings.sync()).rejects.toMatchObject({ status: 401 });
      expect(empty.listings.rows()).toHaveLength(0);
    } finally {
      await own.close();
    }
  });

  it('a listing read degraded leaves the rows and stays set aside, reload after reload, until read whole', async () => {
    const own = await startHarness({ seed: 'demo', demoListings: 60 });
    try {
      const db = new KeptDb(new IDBFactory(), IDBKeyRange);
      const visitOwn = () =>
        createKeptSources(createClient({ baseUrl: own.url, apiKey: DEMO_LIVE_TOKEN }), db);
      const setPrice = async (id: string, price: string) => {
        const put = await own.api(`/listings/${id}.json`, {
          token: DEMO_LIVE_TOKEN,
          method: 'PUT',
          body: { listing: { price } },
        });
        expect(put.status).toBe(200);
      };
      const first = visitOwn().listings;
      const walked = await first.sync();
      await first.save();
      expect(walked.setAside).toEqual([]);
      const victim = walked.rows.find((row) => row.status === 'active')!;

      // It changes, and the server now sends it degraded: the incremental read sets it aside.
      await setPrice(victim.id, '41.00');
      await own.control('PUT', '/faults', { degraded_ids: [victim.id] });
      const second = visitOwn().listings;
      const degraded = await second.sync();
      await second.save();
      expect(degraded.origin).toBe('kept');
      expect(degraded.rows.some((row) => row.id === victim.id)).toBe(false);
      expect(degraded.rows).toHaveLength(walked.rows.length - 1);
      expect(degraded.setAside.map((record) => [record.id, record.kind])).toEqual([
        [victim.id, 'degraded'],
      ]);
      const seenAt = degraded.setAside[0]!.seenAt;
      expect(Date.parse(seenAt)).toBeGreaterThan(Date.parse(walked.syncedAt) - 60_000);

      // A minute on, the next read (which overlaps the last by a few seconds) sees it again...
      await own.control('POST', '/clock', { advance_seconds: 60 });
      const third = visitOwn().listings;
      const seen = await third.sync();
      await third.save();
      const seenAgain = seen.setAside[0]!.seenAt;
      expect(seen.setAside.map((record) => record.id)).toEqual([victim.id]);
      expect(Date.parse(seenAgain)).toBeGreaterThan(Date.parse(seenAt));
      // ...and a reload whose read no longer brings it (unchanged) still reports it, as last seen.
      const fourth = visitOwn().listings;
      const still = await fourth.sync();
      expect(still.origin).toBe('kept');
      expect(still.lastChanged).toBe(0);
      expect(still.setAside.map((record) => [record.id, record.seenAt])).toEqual([
        [victim.id, seenAgain],
      ]);
      expect(still.rows.some((row) => row.id === victim.id)).toBe(false);

      // Sent whole again once it changes: back in the rows, no longer set aside.
      await own.control('PUT', '/faults', { degraded_ids: [] });
      await setPrice(victim.id, '42.00');
      const whole = await visitOwn().listings.sync();
      expect(whole.setAside).toEqual([]);
      expect(whole.rows).toHaveLength(walked.rows.length);
      expect(whole.rows.find((row) => row.id === victim.id)!.price).toBe('42.00');
    } finally {
      await own.close();
    }
  });

  it('keeps a live patch made while the walk is still reading pages', async () => {
    let releaseNext = () => {};
    const nextHeld = new Promise<void>((resolve) => (releaseNext = resolve));
    // The walk's second page is held until the first page's rows have been patched.
    const holdingNext: typeof fetch = async (input, init) => {
      if (String(input).includes('page_info=')) await nextHeld;
      return fetch(input, init);
    };
    const v = visit(new KeptDb(new IDBFactory(), IDBKeyRange), DEMO_LIVE_TOKEN, holdingNext);
    const walking = v.sources.listings.sync();
    await expect.poll(() => v.sources.listings.rows().length).toBeGreaterThan(0);
    const first = v.sources.listings.rows()[0]!;
    v.sources.listings.patch(first.id, (row) => ({ ...row, title: 'Patched live' }));
    releaseNext();
    const walked = await walking;
    expect(walked.rows.length).toBeGreaterThan(250);
    expect(walked.rows.find((row) => row.id === first.id)!.title).toBe('Patched live');
  });

  it('never shows a kept catalogue of another key or mode', async () => {
    const db = new KeptDb(new IDBFactory(), IDBKeyRange);
    const { listings: live } = await firstVisit(db, DEMO_LIVE_TOKEN);
    const liveIds = new Set(live.rows.map((row) => row.id));

    // The test key of the same seller: another mode, another copy.
    const test = visit(db, DEMO_TEST_TOKEN);
    const shown: number[] = [];
    test.sources.listings.subscribe(() => {
      const rows = test.sources.listings.rows();
      shown.push(rows.filter((row) => liveIds.has(row.id)).length);
    });
    const testRows = await test.sources.listings.sync();
    expect(testRows.origin).toBe('walk');
    expect(testRows.rows.length).toBeGreaterThan(0);
    expect(shown.every((n) => n === 0)).toBe(true);

    // Another seller's live key: nothing of the demo seller's copy either.
    const other = await h.seller({ scopes: ['read_listings'] });
    const stranger = visit(db, other.token);
    const strangerRows = await stranger.sources.listings.sync();
    expect(strangerRows.origin).toBe('walk');
    expect(strangerRows.rows).toHaveLength(0);
  });
});

describe('the kept orders', () => {
  it('are walked once with status=any, kept, and brought up to date incrementally', async () => {
    const db = new KeptDb(new IDBFactory(), IDBKeyRange);
    const first = visit(db);
    const orders = await first.sources.orders.sync();
    expect(orders.complete).toBe(true);
    expect(orders.rows.length).toBeGreaterThan(50);
    await first.sources.orders.save();
    const walked = first.collectionRequests('/orders.json');

    // A sale elsewhere: a new order after the kept copy.
    const active = (await first.sources.listings.sync()).rows.find(
      (row) => row.status === 'active',
    )!;
    const sale = await h.control<{ order: { id: string } }>(
      'POST',
      `/listings/${active.id}/sell`,
      {},
    );
    expect(sale.status).toBe(200);

    const again = visit(db);
    const reloaded = await again.sources.orders.sync();
    expect(reloaded.origin).toBe('kept');
    expect(reloaded.rows.some((order) => order.id === sale.body.order.id)).toBe(true);
    expect(reloaded.rows).toHaveLength(orders.rows.length + 1);
    // The store's check, the orders changed since, and which of them the API's open filter holds.
    expect(again.collectionRequests('/orders.json')).toBe(3);
    expect(walked).toBeGreaterThanOrEqual(1);
  });
});

describe('the kept cards', () => {
  it('are walked once, kept, and a reload reads only the cards changed since', async () => {
    const db = new KeptDb(new IDBFactory(), IDBKeyRange);
    const first = visit(db);
    const items = await first.sources.items.sync();
    expect(items.complete).toBe(true);
    expect(items.rows.length).toBeGreaterThan(250);
    expect(first.collectionRequests('/inventory_items.json')).toBeGreaterThan(1);
    await first.sources.items.save();

    const again = visit(db);
    const reloaded = await again.sources.items.sync();
    expect(reloaded.origin).toBe('kept');
    expect(reloaded.rows).toEqual(items.rows);
    // No session storage here: each visit checks the store (its oldest card), then reads what changed.
    expect(again.collectionRequests('/inventory_items.json')).toBe(2);
  });
});

describe('a first visit', () => {
  it('walks without opening IndexedDB or waiting for the ping, and its save marks the copy', async () => {
    const factory = new IDBFactory();
    let opened = 0;
    const counting = new Proxy(factory, {
      get(target, name) {
        if (name === 'open') {
          return (...args: Parameters<IDBFactory['open']>) => {
            opened++;
            return target.open(...args);
          };
        }
        const value = Reflect.get(target, name, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const marker = new Map<string, string>();
    const storage = {
      getItem: (key: string) => marker.get(key) ?? null,
      setItem: (key: string, value: string) => void marker.set(key, value),
    };
    const db = new KeptDb(counting, IDBKeyRange, storage);
    // The ping's answer is held until the walk is over: the walk does not wait for it.
    let releasePing = () => {};
    const pingHeld = new Promise<void>((resolve) => (releasePing = resolve));
    const holdingPing: typeof fetch = async (input, init) => {
      if (String(input).includes('/ping')) await pingHeld;
      return fetch(input, init);
    };
    const first = visit(db, DEMO_LIVE_TOKEN, holdingPing);
    const walking = first.sources.listings.sync();
    // Every page of the walk comes in while the ping is still held.
    await expect
      .poll(() => first.rows('/listings.json').length, { timeout: 10_000 })
      .toBeGreaterThan(1);
    await expect.poll(() => first.sources.listings.rows().length).toBeGreaterThan(250);
    expect(first.requests).not.toContain('/2026-07/ping');
    expect(opened).toBe(0);
    releasePing();
    const walked = await walking;
    expect(walked.origin).toBe('walk');
    // The save waits for the ping's answer (the copy's owner), then writes and marks the copy.
    await first.sources.listings.save();
    expect(marker.size).toBe(1);
    expect(opened).toBe(1);

    const again = visit(db);
    const reloaded = await again.sources.listings.sync();
    expect(reloaded.origin).toBe('kept');
    expect(reloaded.rows).toEqual(walked.rows);
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
    const db = new KeptDb(factory, IDBKeyRange);
    const first = visit(db);
    const walked = await first.sources.listings.sync();
    await first.sources.listings.save();
    const again = visit(new KeptDb(factory, IDBKeyRange));
    const reloaded = await again.sources.listings.sync();
    expect(reloaded.origin).toBe('kept');
    expect(reloaded.rows).toEqual(walked.rows);
  });
});
