import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type ListingWrite } from '../../src/client';
import { listingWriteQueue } from '../../src/client/listing-write-queue';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { startFaultProxy, type Fault } from './fault-proxy';

/**
 * 200 listing edits and 50 creates through a proxy that drops connections after the sandbox
 * answered, answers 500 after the sandbox acted, drops before forwarding, and injects 500, 429
 * and 503 with Retry-After. The sandbox's bucket is off here (250 writes would take two minutes
 * of real bucket time); pacing against the real bucket is covered in pacing.test.ts.
 */

let h: Harness;
let receiver: Server;
let receiverUrl: string;
/** Webhook deliveries, deduplicated by event id (as the spec tells consumers to). */
const events = new Map<string, { topic: string; productId: string }>();

beforeAll(async () => {
  h = await startHarness({ seed: 'none', rateLimit: false });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['x-service-webhook-id']);
      const topic = String(req.headers['x-service-webhook-topic']);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
      events.set(id, { topic, productId: body.id });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await h.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** A small deterministic PRNG, so a failing run can be replayed. */
function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('writes through a faulty network', () => {
  it('applies every edit exactly once, creates no duplicate, and reports every failure with its code', async () => {
    const { token, sellerId } = await h.seller({ mode: 'live' });
    const hook = await h.control('POST', '/webhooks', {
      seller_id: sellerId,
      url: receiverUrl,
      topics: ['products/create', 'products/update'],
    });
    expect(hook.status).toBe(200);

    // 100 registered certs: 50 listed up front (to be edited), 50 for the creates (5 of them unknown).
    const certs: string[] = [];
    for (let i = 0; i < 100; i++) {
      const cert = `5${String(i).padStart(7, '0')}`;
      await h.control('POST', '/certs', {
        cert_number: cert,
        grader: 'PSA',
        title: `Card ${cert}`,
        grade: '8',
      });
      certs.push(cert);
    }
    const direct = createClient({ baseUrl: h.url, apiKey: token });
    const listingIds: string[] = [];
    for (const sku of certs.slice(0, 50)) {
      listingIds.push((await direct.listings.create({ sku, price: '100.00' })).data.id);
    }

    // 200 edits: 4 price edits per listing, in order; the second edit of 10 listings is invalid.
    const edits: ListingWrite[] = [];
    const expectedPrice = new Map<string, string>();
    const expectedUpdates = new Map<string, number>();
    for (let round = 1; round <= 4; round++) {
      listingIds.forEach((id, index) => {
        const invalid = round === 2 && index % 5 === 0;
        const price = invalid ? '5' : `${100 + round * 10 + index}.00`;
        edits.push({ kind: 'update', id, patch: { price } });
        if (!invalid) {
          expectedPrice.set(id, price);
          expectedUpdates.set(id, (expectedUpdates.get(id) ?? 0) + 1);
        }
      });
    }
    const creates: ListingWrite[] = certs.slice(50).map((sku, i) => ({
      kind: 'create',
      input: { sku: i % 10 === 9 ? `9${sku.slice(1)}` : sku, price: '60.00' },
    }));

    const random = mulberry32(20260701);
    const proxy = await startFaultProxy(h.url, {
      decide: (info): Fault => {
        if (info.method === 'GET') return 'pass';
        const r = random();
        if (r < 0.06) return 'drop_after';
        if (r < 0.1) return 'error_after';
        if (r < 0.13) return 'drop_before';
        if (r < 0.16) return 'error_500';
        if (r < 0.18) return 'rate_limited';
        if (r < 0.21) return 'unavailable';
        return 'pass';
      },
    });
    try {
      const api = createClient({
        baseUrl: proxy.url,
        apiKey: token,
        retry: { backoffMs: 50, transient: 8 },
      });
      const queue = listingWriteQueue(api, { concurrency: 6 });
      let lastProgress = queue.progress();
      queue.subscribe((p) => (lastProgress = p));
      queue.addWrites([...edits, ...creates]);
      const items = await queue.settled();

      // Every fault kind happened.
      const faults = new Set(proxy.log.map((e) => e.fault));
      for (const kind of [
        'drop_after',
        'error_after',
        'drop_before',
        'error_500',
        'rate_limited',
        'unavailable',
      ] as const) {
        expect(faults.has(kind), kind).toBe(true);
      }
      // Outcomes: every failure is reported with its code, and only the expected ones failed.
      const failed = items.filter((i) => i.status === 'failed');
      const codes = failed.map((i) => i.error?.code).sort();
      expect(codes).toEqual([
        ...Array<string>(5).fill('cert_not_found'),
        ...Array<string>(10).fill('validation_error'),
      ]);
      for (const item of failed) expect(item.error?.status).toBe(422);
      expect(items.filter((i) => i.status === 'done')).toHaveLength(235);
      expect(lastProgress).toMatchObject({ total: 250, done: 235, failed: 15, pending: 0 });

      // The store: the last valid edit of each listing won; no duplicate listing was created.
      const all = await direct.listings.loadAll();
      expect(all.rows).toHaveLength(95);
      expect(new Set(all.rows.map((p) => p.card?.cert_number)).size).toBe(95);
      for (const [id, price] of expectedPrice) {
        expect(all.rows.find((p) => p.id === id)?.price).toBe(price);
      }

      // The webhooks: exactly one products/update per applied edit, one products/create per listing.
      const count = (topic: string) => [...events.values()].filter((e) => e.topic === topic);
      await vi.waitFor(
        () => {
          expect(count('products/update').length).toBeGreaterThanOrEqual(190);
          expect(count('products/create').length).toBeGreaterThanOrEqual(95);
        },
        { timeout: 10_000, interval: 100 },
      );
      // No delivery is still due once the clock endpoint returns: the counts below are final.
      await h.control('POST', '/clock', { advance_seconds: 0 });
      expect(count('products/create')).toHaveLength(95);
      expect(count('products/update')).toHaveLength(190);
      for (const [id, n] of expectedUpdates) {
        expect(count('products/update').filter((e) => e.productId === id)).toHaveLength(n);
      }
      // Each logical write kept one Idempotency-Key across its retries, and no two shared one.
      const attemptsByKey = new Map<string, Set<string>>();
      for (const entry of proxy.log.filter((e) => e.method !== 'GET')) {
        expect(entry.idempotencyKey).toBeDefined();
        const set = attemptsByKey.get(entry.idempotencyKey!) ?? new Set();
        set.add(`${entry.method} ${entry.url.split('?')[0]}`);
        attemptsByKey.set(entry.idempotencyKey!, set);
      }
      expect(attemptsByKey.size).toBe(250);
      for (const targets of attemptsByKey.values()) expect(targets.size).toBe(1);
      expect(proxy.log.filter((e) => e.method !== 'GET').length).toBeGreaterThan(250);
    } finally {
      await proxy.close();
    }
  }, 90_000);
});
