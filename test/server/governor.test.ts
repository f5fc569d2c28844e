import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type SlabdeskClient } from '../../src/client';
import { listingWriteQueue } from '../../src/client/listing-write-queue';
import type { RequestPriority } from '../../src/client/pacer';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { startCountingProxy, type CountingProxy } from '../support/counting-proxy';
import { startHarness, type Harness } from '../support/sandbox-harness';

/**
 * The governor: every tab's calls through the server share one model of the key's bucket. The
 * tabs are Node clients of the server's `/api` (no key, no pacing of their own: what the
 * dashboard does in the browser), and the 429s are counted in front of the sandbox.
 */
let harness: Harness;
let counter: CountingProxy;
const apps: RunningAppServer[] = [];

/** A fresh live key (an empty bucket) with its own server in front of the counting proxy. */
async function freshServer(): Promise<{ app: RunningAppServer; token: string; ids: string[] }> {
  const { token } = await harness.seller({ mode: 'live' });
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    const cert = `GOV${Date.now()}${apps.length}${i}`;
    await harness.control('POST', '/certs', {
      cert_number: cert,
      grader: 'PSA',
      title: `Governed card ${i}`,
      grade: '9',
    });
    const created = await harness.api('/listings.json', {
      token,
      method: 'POST',
      body: { listing: { sku: cert, price: '100.00' } },
    });
    ids.push(((await created.json()) as { listing: { id: string } }).listing.id);
  }
  const app = await startAppServer(
    // The counter measures the tabs' calls: the hub's replica fills only when read, and every
    // ping goes upstream (the pings are the load the governor is measured with).
    {
      upstream: { baseUrl: counter.url, apiKey: token },
      port: 0,
      replica: { fill: 'when-read' },
      proxy: { pings: null },
    },
    async () => ({
      development: false,
      register: async () => {},
      pageHtml: async () => '<!doctype html><title>t</title>',
    }),
  );
  apps.push(app);
  return { app, token, ids };
}

/** A tab: a client of the server's `/api` with no key and no pacing of its own, as in the browser. */
function tab(app: RunningAppServer): SlabdeskClient {
  return createClient({
    baseUrl: `${app.url}/api`,
    pacing: { enabled: false, maxInFlight: 6 },
    sendPriority: true,
  });
}

beforeAll(async () => {
  harness = await startHarness();
  counter = await startCountingProxy(harness.url);
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await counter?.close();
  await harness?.close();
});

describe('one governor per key', () => {
  it('two tabs of 30 edits each at once draw no 429 from the upstream', async () => {
    const { app, ids: listingIds } = await freshServer();
    const before = counter.count(429);
    const edits = (client: SlabdeskClient, offset: number) =>
      Array.from({ length: 30 }, (_, i) =>
        client.listings.update(listingIds[i % listingIds.length]!, {
          price: (100 + offset + i).toFixed(2),
        }),
      );
    const [a, b] = [tab(app), tab(app)];
    const results = await Promise.all([...edits(a, 0), ...edits(b, 50)]);
    expect(results).toHaveLength(60);
    expect(counter.count(429) - before).toBe(0);
    expect(
      a.transport.getState().counts.rateLimited + b.transport.getState().counts.rateLimited,
    ).toBe(0);
  }, 60_000);

  it('adapts when another client of the same key shows up in the header', async () => {
    const { app, token } = await freshServer();
    // The governor has learnt the key's bucket (one call), then another program spends 30 of the
    // key's 40 straight at the sandbox.
    await tab(app).ping();
    const before = counter.count(429);
    await Promise.all(Array.from({ length: 30 }, () => harness.api('/ping', { token })));
    const client = tab(app);
    await Promise.all(Array.from({ length: 20 }, () => client.ping()));
    expect(counter.count(429) - before).toBe(0);
  }, 60_000);

  it('lets a click through before the bulk writes waiting ahead of it', async () => {
    const { app, token, ids: listingIds } = await freshServer();
    // Another program has spent 30 of the key's 40: the job's writes soon wait for room, however
    // slowly a busy machine sends them.
    await Promise.all(Array.from({ length: 30 }, () => harness.api('/ping', { token })));
    // Each ticket the governor is asked for and hands out, on one sequence: the order at the
    // governor itself, whatever the machine's load does to the click's way there.
    const governor = app.hub.governor;
    const asked: { priority: RequestPriority; at: number; granted?: number }[] = [];
    let step = 0;
    const acquire = governor.acquire.bind(governor);
    governor.acquire = (priority, ...rest) => {
      const entry: (typeof asked)[number] = { priority, at: ++step };
      asked.push(entry);
      return acquire(priority, ...rest).then((ticket) => {
        entry.granted = ++step;
        return ticket;
      });
    };
    const bulk = tab(app);
    const queue = listingWriteQueue(bulk, { concurrency: 6 });
    queue.addWrites(
      Array.from({ length: 24 }, (_, i) => ({
        kind: 'update' as const,
        id: listingIds[i % listingIds.length]!,
        patch: { price: (200 + i).toFixed(2) },
      })),
    );
    // Once the job's writes wait for room, past the first ones (which also wait while the
    // governor learns the key's bucket), a page opens in another tab.
    const bulkWrites = () => asked.filter((entry) => entry.priority === 'bulk');
    await vi.waitFor(
      () => {
        expect(bulkWrites().filter((entry) => entry.granted).length).toBeGreaterThanOrEqual(12);
        expect(bulkWrites().filter((entry) => !entry.granted).length).toBeGreaterThanOrEqual(3);
      },
      { timeout: 45_000, interval: 20 },
    );
    await tab(app).ping();
    const click = asked.find((entry) => entry.priority === 'interactive')!;
    expect(click.granted).toBeDefined();
    // The writes already waiting when the click arrived (asked for before it, handed out after).
    const ahead = asked.filter(
      (entry) =>
        entry.priority === 'bulk' && entry.at < click.at && (entry.granted ?? Infinity) > click.at,
    );
    expect(ahead.length).toBeGreaterThanOrEqual(3);
    // In order of arrival the click would have gone after every one of them; it went first (a
    // write handed out in the same instant aside).
    const writesFirst = ahead.filter((entry) => entry.granted! < click.granted!).length;
    expect(writesFirst).toBeLessThanOrEqual(1);
    await queue.settled();
    expect(queue.progress().done).toBe(24);
  }, 150_000);
});
