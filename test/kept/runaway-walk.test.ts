// idb recognises requests by the global IndexedDB classes: fake-indexeddb's, installed here.
import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client';
import { listingKeys } from '../../src/api/listings/listing-keys';
import { KeptDb } from '../../src/api/kept/kept-db';
import { keepCopies, keptOptions } from '../../src/api/kept/kept-persister';
import { keptQueryFn } from '../../src/api/kept/kept-query';
import { keptListings } from '../../src/api/listings/catalogue-query';
import { pageBound } from '../../src/api/kept/kept-sync';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { startHarness, type Harness } from '../support/sandbox-harness';

/**
 * A rebuild of the kept catalogue against a store that serves fresh rows without end: the walk
 * stops at the bound the last complete walk sets (not at half a million rows), keeps its
 * failure, and reads no page more.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: 'demo', demoListings: 300 });
});
afterAll(() => h.close());

function visit(db: KeptDb, fetchImpl?: typeof fetch) {
  const client = createClient({
    baseUrl: h.url,
    apiKey: DEMO_LIVE_TOKEN,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const copies = keepCopies(queryClient, db);
  const queryKey = listingKeys.catalogue();
  const queryFn = keptQueryFn(queryClient, queryKey, keptListings(client, queryClient), { db });
  return {
    load: () =>
      queryClient.fetchQuery({ queryKey, queryFn, staleTime: 0, ...keptOptions('listings') }),
    save: () => copies.flush(),
  };
}

/** Listings pages that never end: each of 250 rows never seen, each announcing the next. */
function endlessListings(calls: string[]): typeof fetch {
  return async (input, init) => {
    const url = new URL(String(input));
    if (!url.pathname.endsWith('/listings.json')) return fetch(input, init);
    calls.push(url.href);
    if (url.searchParams.get('limit') === '1') {
      // The store's oldest row is another: the kept copy is rebuilt.
      const rows = [{ id: 'lst_another', created_at: '2026-01-01T00:00:00Z' }];
      return Response.json({ listings: rows });
    }
    const n = Number(url.searchParams.get('page_info') ?? 0);
    const listings = Array.from({ length: 250 }, (_, i) => ({ id: `lst_f${n}_${i}` }));
    url.searchParams.set('page_info', String(n + 1));
    return Response.json({ listings }, { headers: { link: `<${url.href}>; rel="next"` } });
  };
}

describe('a runaway walk', () => {
  it('stops at the bound of the last complete walk and keeps its failure', async () => {
    const db = new KeptDb(new IDBFactory(), IDBKeyRange);
    const first = visit(db);
    const whole = await first.load();
    expect(whole.complete).toBe(true);
    expect(whole.rows).toHaveLength(300);
    await first.save();

    const calls: string[] = [];
    const again = visit(db, endlessListings(calls));
    const stopped = await again.load();
    expect(stopped.complete).toBe(false);
    expect(stopped.failure?.error).toMatchObject({ code: 'page_budget_exceeded' });
    const bound = pageBound(300);
    expect(stopped.rows).toHaveLength(bound * 250);
    // The probe, the pages within the bound, and at most the lookahead's two more.
    expect(calls.length).toBeLessThanOrEqual(1 + bound + 2);

    // What a minute's poll does: it reads nothing, and the failure stays.
    const polled = await again.load();
    expect(polled.failure).toBe(stopped.failure);
    expect(calls.length).toBeLessThanOrEqual(1 + bound + 2);
  });
});
