import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueryClient } from '@tanstack/react-query';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { keptQueryFn } from '../../src/api/kept/kept-query';
import type { Kept } from '../../src/api/kept/kept-sync';
import { keptListings } from '../../src/api/listings/catalogue-query';
import { createClient, type ListingRead } from '../../src/client';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import type { RunningAppServer } from '../../src/server/app-server';
import { startServer, type World } from '../rules/rules-world';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { sandboxRows } from './replica-world';

/**
 * A fresh hub's first fill with the marketplace holding every listing page after the first: the
 * orders are read beside the listings, and a browser asking again is answered as the fill lands,
 * never shown part of the catalogue as the whole.
 */
let harness: Harness;
let door: Server;
let doorUrl: string;
let world: World;
let listings = 0;
/** The held listing pages' forwards, while `holding`. */
let holding = true;
const held: (() => void)[] = [];
const release = () => {
  holding = false;
  for (const forward of held.splice(0)) forward();
};
const servers: RunningAppServer[] = [];

beforeAll(async () => {
  harness = await startHarness({ seed: 'demo', demoListings: 300, rateLimit: false });
  door = createServer((req, res) => {
    const forward = () =>
      void fetch(`${harness.url}${req.url}`, {
        headers: { 'x-service-access-token': DEMO_LIVE_TOKEN },
      }).then(async (answer) => {
        const headers: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (name === 'content-encoding' || name === 'content-length') return;
          // The next pages come through the door too.
          headers[name] = name === 'link' ? value.replaceAll(harness.url, doorUrl) : value;
        });
        res.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()));
      });
    if (holding && /\/listings\.json\?.*page_info=/.test(req.url ?? '')) held.push(forward);
    else forward();
  });
  await new Promise<void>((resolve) => door.listen(0, '127.0.0.1', resolve));
  doorUrl = `http://127.0.0.1:${(door.address() as AddressInfo).port}`;
  world = { harness, token: DEMO_LIVE_TOKEN, sellerId: '', folder: '' };
  listings = (await sandboxRows(world, DEMO_LIVE_TOKEN, '/listings.json', 'listings')).length;
  world = { ...world, harness: { ...harness, url: doorUrl } };
});

afterEach(async () => {
  release();
  for (const server of servers.splice(0)) await server.close();
  holding = true;
});

afterAll(async () => {
  door?.closeAllConnections();
  await new Promise((resolve) => door?.close(resolve));
  await harness?.close();
});

/** A fresh hub over the door, its first fill started. */
async function freshHub(): Promise<RunningAppServer> {
  const server = await startServer(world);
  servers.push(server);
  // The first listing page is in: the rest is held.
  await vi.waitFor(() => expect(server.replica.store.count('listings')).toBe(250), {
    timeout: 10_000,
  });
  return server;
}

interface FeedAnswer {
  filled: boolean;
  more: boolean;
  cursor: string;
  rows: unknown[];
}

async function feed(server: RunningAppServer, cursor?: string): Promise<FeedAnswer> {
  const query = cursor === undefined ? '' : `?cursor=${cursor}`;
  const answer = await fetch(`${server.url}/hub/replica/listings${query}`);
  expect(answer.status).toBe(200);
  return (await answer.json()) as FeedAnswer;
}

describe('a first fill with the listings held', () => {
  it('reads the orders beside the listings, through to the end', async () => {
    expect(listings).toBeGreaterThan(250);
    const server = await freshHub();
    await vi.waitFor(() => expect(server.replica.filled(['orders'])).toBe(true), {
      timeout: 10_000,
    });
    expect(server.replica.store.count('orders')).toBeGreaterThan(0);
    expect(server.replica.filled(['listings'])).toBe(false);
    let landed = false;
    const landing = server.replica.fillLanded('listings', 60_000).then(() => (landed = true));
    await vi.waitFor(() => expect(held.length).toBeGreaterThan(0));
    expect(landed).toBe(false);
    release();
    await landing;
    expect(server.replica.filled(['listings'])).toBe(true);
    expect(server.replica.store.count('listings')).toBe(listings);
  });

  it('answers a browser asking again as the fill lands, with the rest of the rows', async () => {
    const server = await freshHub();
    const first = await feed(server);
    expect(first).toMatchObject({ filled: false, more: false });
    expect(first.rows).toHaveLength(250);
    // The held pages go once the hub has the browser's next ask: its answer waits for them.
    server.server.once('request', release);
    const again = await feed(server, first.cursor);
    expect(again.filled).toBe(true);
    expect(first.rows.length + again.rows.length).toBe(listings);
  });

  it('a browser’s kept catalogue shows the rows so far as part, then the whole once it lands', async () => {
    const server = await freshHub();
    const client = createClient({ baseUrl: `${server.url}/api` });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const queryKey = ['kept', 'listings'];
    const shown: { rows: number; complete: boolean }[] = [];
    queryClient.getQueryCache().subscribe(() => {
      const kept = queryClient.getQueryData<Kept<ListingRead>>(queryKey);
      if (kept) shown.push({ rows: kept.rows.length, complete: kept.complete });
    });
    const queryFn = keptQueryFn(queryClient, queryKey, keptListings(client), { db: null });
    const sync = queryClient.fetchQuery({ queryKey, queryFn, staleTime: 0 });
    await vi.waitFor(() => expect(shown).toContainEqual({ rows: 250, complete: false }));
    release();
    const kept = await sync;
    expect(kept.complete).toBe(true);
    expect(kept.rows).toHaveLength(listings);
    // Never the part as the whole.
    expect(shown.filter((state) => state.complete && state.rows !== listings)).toEqual([]);
  });
});
