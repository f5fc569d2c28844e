import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { DEMO_LIVE_TOKEN, startSandbox, type RunningSandbox } from '../../src/sandbox';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { expect } from '@playwright/test';
import { demoApiFetch } from './demo-records';

/**
 * A card show as a dealer has it mid-afternoon, made through the server's own routes on the
 * suite's demo store: a case of slabs, two of them sold at the table (one for a trade plus cash),
 * the next slab still for sale, a few open orders for a packing sheet. The slabs are taken from
 * the far end of the active listings, away from the ones other specs take from the front.
 */
export interface ShowScene {
  showKey: string;
  showName: string;
  /** A slab sold at this show: its counter view says so first. */
  soldCert: string;
  /** The next slab, still for sale. */
  nextCert: string;
  /** The case's listings (the bulk editor opens them). */
  caseIds: string[];
  /** Open orders for a packing sheet. */
  orderIds: string[];
}

interface DemoListing {
  id: string;
  title: string;
  price: string;
  is_lot: boolean;
  unavailable_reason?: string | null;
  card: { cert_number: string };
}

/** A call of the server in front of the sandbox (no sign-in on the suite's main server). */
async function atServer(baseURL: string, path: string, method: string, body: unknown) {
  const answer = await fetch(`${baseURL}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return answer;
}

export async function makeShowScene(baseURL: string): Promise<ShowScene> {
  const listed = await demoApiFetch('/listings.json?status=active&limit=250');
  expect(listed.status).toBe(200);
  const { listings } = (await listed.json()) as { listings: DemoListing[] };
  const certs = new Map<string, number>();
  for (const row of listings) {
    certs.set(row.card.cert_number, (certs.get(row.card.cert_number) ?? 0) + 1);
  }
  const single = listings.filter(
    (row) => !row.is_lot && !row.unavailable_reason && certs.get(row.card.cert_number) === 1,
  );
  // From the end, past any slab a scene made before on this server sold (a slab is sold once).
  const slabs: DemoListing[] = [];
  for (const row of single.reverse()) {
    if (slabs.length === 6) break;
    const sale = await fetch(`${baseURL}/hub/show-sales?listing=${encodeURIComponent(row.id)}`);
    if (((await sale.json()) as { sale: unknown }).sale === null) slabs.unshift(row);
  }
  expect(slabs, 'six single slabs for the case').toHaveLength(6);

  const showKey = randomUUID();
  const showName = `Philly Card Show ${showKey.slice(0, 4)}`;
  const made = await atServer(baseURL, '/hub/shows', 'POST', {
    key: showKey,
    name: showName,
    date: '2026-11-28',
  });
  expect(made.status).toBe(201);
  const caseIds = slabs.map((slab) => slab.id);
  const set = await atServer(baseURL, `/hub/shows/${showKey}/case`, 'PUT', {
    listingIds: caseIds,
  });
  expect(set.status).toBe(200);

  // Two sales at the table: cash, then a trade with cash on top.
  const [first, second] = slabs;
  const sales = [
    { listing: first!, price: '250.00' },
    {
      listing: second!,
      price: '1180.00',
      tradeIn: {
        title: '2003 Topps Chrome LeBron James',
        certNumber: '87654321',
        value: '400.00',
      },
    },
  ];
  for (const sale of sales) {
    const answer = await atServer(baseURL, `/hub/shows/${showKey}/entries`, 'POST', {
      key: randomUUID(),
      soldAt: new Date().toISOString(),
      listingId: sale.listing.id,
      title: sale.listing.title,
      price: sale.price,
      ...(sale.tradeIn ? { tradeIn: sale.tradeIn } : {}),
      soldOnline: false,
      offMarket: 'deactivated',
    });
    expect(answer.status, await answer.clone().text()).toBe(201);
  }

  const open = await demoApiFetch('/orders.json?status=open&limit=3');
  expect(open.status).toBe(200);
  const { orders } = (await open.json()) as { orders: { id: string }[] };
  expect(orders.length, 'open demo orders for a packing sheet').toBeGreaterThan(0);

  return {
    showKey,
    showName,
    soldCert: first!.card.cert_number,
    nextCert: slabs[2]!.card.cert_number,
    caseIds,
    orderIds: orders.map((order) => order.id),
  };
}

/** A show dated 2026-11-28 with these listings in its case, made through the server's routes. */
export async function showWithCase(serverUrl: string, listingIds: string[]): Promise<string> {
  const key = randomUUID();
  const made = await fetch(`${serverUrl}/hub/shows`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key, name: `Hall ${key.slice(0, 4)}`, date: '2026-11-28' }),
  });
  expect(made.status).toBe(201);
  const set = await fetch(`${serverUrl}/hub/shows/${key}/case`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ listingIds }),
  });
  expect(set.status).toBe(200);
  return key;
}

/**
 * The built app on a server of its own over a fresh demo sandbox: a spec that sells keeps the
 * suite's shared store as the other specs expect it.
 */
export async function startDemoApp(): Promise<{ sandbox: RunningSandbox; app: RunningAppServer }> {
  const sandbox = await startSandbox({ port: 0, db: ':memory:', seed: 'demo' });
  const app = await startAppServer(
    {
      upstream: { baseUrl: sandbox.url, apiKey: DEMO_LIVE_TOKEN },
      port: 0,
      activity: { path: ':memory:' },
    },
    async () => distPages(resolve(import.meta.dirname, '../../dist/page')),
  );
  return { sandbox, app };
}
