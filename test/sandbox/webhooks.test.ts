import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { startReceiver, verifySignature, type Receiver } from './webhooks-receiver';
import { call, createListing, getProduct, registerCert, type Json } from './writes-helpers';

let h: Harness;
let receiver: Receiver;

interface Hook {
  id: string;
  secret: string;
  sellerId: string;
  token: string;
}

async function hookedSeller(target: Receiver, topics?: string[], harness = h): Promise<Hook> {
  const seller = await harness.seller();
  const res = await harness.control<Json>('POST', '/webhooks', {
    seller_id: seller.sellerId,
    url: target.url,
    ...(topics ? { topics } : {}),
  });
  expect(res.status).toBe(200);
  return { id: res.body.webhook.id, secret: res.body.webhook.secret, ...seller };
}

async function newListing(hook: Hook, harness = h): Promise<string> {
  const res = await createListing(harness, hook.token, {
    sku: await registerCert(harness, 'PSA'),
    price: 20,
  });
  expect(res.status).toBe(201);
  return res.body.listing.id as string;
}

const deliveries = async (hook: Hook, harness = h) =>
  (await harness.control<Json>('GET', `/webhooks/${hook.id}/deliveries`)).body.deliveries as Json[];

beforeAll(async () => {
  // Short enough for the hang test, long enough that a busy machine still answers in time.
  h = await startHarness({ rateLimit: false, webhookTimeoutMs: 2_000 });
  receiver = await startReceiver();
});
afterAll(async () => {
  await h.close();
  await receiver.close();
  // Each event id arrives once per attempt.
  const pairs = receiver.received.map((r) => `${r.eventId}#${r.attempt}`);
  expect(new Set(pairs).size).toBe(pairs.length);
});

describe('registering endpoints', () => {
  it('returns a svc_whsec_ secret and every topic by default', async () => {
    const seller = await h.seller();
    const res = await h.control<Json>('POST', '/webhooks', {
      seller_id: seller.sellerId,
      url: 'https://hooks.example.com/svc',
    });
    expect(res.body.webhook).toMatchObject({
      url: 'https://hooks.example.com/svc',
      topics: [
        'products/create',
        'products/update',
        'products/delete',
        'orders/create',
        'orders/updated',
        'orders/cancelled',
      ],
    });
    expect(res.body.webhook.secret).toMatch(/^svc_whsec_[A-Za-z0-9]{32}$/);
  });

  it('refuses plain http off loopback, unknown topics and unknown sellers', async () => {
    const seller = await h.seller();
    const http = await h.control('POST', '/webhooks', {
      seller_id: seller.sellerId,
      url: 'http://hooks.example.com/svc',
    });
    expect(http.status).toBe(400);
    const topic = await h.control('POST', '/webhooks', {
      seller_id: seller.sellerId,
      url: receiver.url,
      topics: ['products/explode'],
    });
    expect(topic.status).toBe(400);
    const nobody = await h.control('POST', '/webhooks', { seller_id: 'slr_x', url: receiver.url });
    expect(nobody.status).toBe(404);
  });
});

describe('deliveries', () => {
  it('POSTs the bare product, signed over the raw bytes, with the headers', async () => {
    const hook = await hookedSeller(receiver);
    const id = await newListing(hook);
    await receiver.waitFor((all) => all.some((r) => r.body.id === id));
    const delivery = receiver.received.find((r) => r.body.id === id)!;
    expect(delivery.topic).toBe('products/create');
    expect(delivery.eventId).toMatch(/^evt_/);
    expect(delivery.attempt).toBe(1);
    expect(delivery.headers['x-service-api-version']).toBe('2026-07');
    expect(delivery.headers['x-service-api-mode']).toBe('live');
    expect(delivery.headers['x-service-webhook-test']).toBeUndefined();
    const signature = delivery.headers['x-service-webhook-signature'] as string;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature(hook.secret, delivery.raw, signature)).toBe(true);
    const tampered = Buffer.from(delivery.raw.toString().replace('"20.00"', '"10.00"'));
    expect(verifySignature(hook.secret, tampered, signature)).toBe(false);
    expect(verifySignature(`${hook.secret}x`, delivery.raw, signature)).toBe(false);
    expect(delivery.body).toEqual(await getProduct(h, hook.token, id));
    expect(delivery.body.svc_unavailable_reason).toBeNull();
    const log = await deliveries(hook);
    expect(log).toEqual([
      expect.objectContaining({
        event_id: delivery.eventId,
        topic: 'products/create',
        attempt: 1,
        status_code: 200,
        delivered_at: expect.stringMatching(/Z$/),
      }),
    ]);
  });

  it('retries after a 500 on the marketplace clock, re-signed, with the same event id', async () => {
    const flaky = await startReceiver();
    flaky.answer = (d) => (d.attempt < 3 ? 500 : 200);
    try {
      const hook = await hookedSeller(flaky, ['products/create']);
      await newListing(hook);
      await flaky.waitFor((all) => all.length === 1);
      const eventId = flaky.received[0]!.eventId;
      // The failed attempt waits on the marketplace clock: nothing more arrives until it moves.
      // (The clock endpoint returns once every delivery due now was attempted.)
      await h.control('POST', '/clock', { advance_seconds: 0 });
      expect(flaky.received).toHaveLength(1);
      await h.control('POST', '/clock', { advance_seconds: 61 });
      expect(flaky.received.map((r) => r.attempt)).toEqual([1, 2]);
      await h.control('POST', '/clock', { advance_seconds: 24 * 3600 });
      expect(flaky.received.map((r) => r.attempt)).toEqual([1, 2, 3]);
      for (const r of flaky.received) {
        expect(r.eventId).toBe(eventId);
        const signature = r.headers['x-service-webhook-signature'] as string;
        expect(verifySignature(hook.secret, r.raw, signature)).toBe(true);
        expect(r.raw.equals(flaky.received[0]!.raw)).toBe(true);
      }
      const log = await deliveries(hook);
      expect(log.map((d) => [d.event_id, d.attempt, d.status_code])).toEqual([
        [eventId, 1, 500],
        [eventId, 2, 500],
        [eventId, 3, 200],
      ]);
      // Each event id arrives once per attempt.
      const pairs = flaky.received.map((r) => `${r.eventId}#${r.attempt}`);
      expect(new Set(pairs).size).toBe(pairs.length);
    } finally {
      await flaky.close();
    }
  });

  it('disables an endpoint after 8 failed attempts; it can be re-enabled and the event redelivered', async () => {
    const down = await startReceiver();
    down.answer = () => 500;
    try {
      const hook = await hookedSeller(down, ['products/create']);
      await newListing(hook);
      await down.waitFor((all) => all.length === 1);
      await h.control('POST', '/clock', { advance_seconds: 2 * 24 * 3600 });
      expect(down.received.map((r) => r.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(new Set(down.received.map((r) => r.eventId)).size).toBe(1);
      const log = await deliveries(hook);
      expect(log).toHaveLength(8);
      expect(log.every((d) => d.status_code === 500)).toBe(true);
      const state = await h.control<Json>('GET', `/webhooks/${hook.id}`);
      expect(state.body.webhook.enabled).toBe(false);
      expect(state.body.webhook.disabled_reason).toMatch(/8 attempts/);

      await newListing(hook);
      // Every delivery due now was attempted when the clock endpoint returns: none went out.
      await h.control('POST', '/clock', { advance_seconds: 0 });
      expect(down.received).toHaveLength(8);

      down.answer = () => 204;
      await h.control('PATCH', `/webhooks/${hook.id}`, { enabled: true });
      const eventId = down.received[0]!.eventId;
      expect((await h.control('POST', `/events/${eventId}/redeliver`)).status).toBe(200);
      await down.waitFor((all) => all.length === 9);
      expect(down.received[8]).toMatchObject({ eventId, attempt: 1 });
    } finally {
      await down.close();
    }
  });

  it('counts no answer within the timeout as a failure and retries it', async () => {
    const slow = await startReceiver();
    let hang = true;
    slow.answer = () => (hang ? 'hang' : 200);
    try {
      const hook = await hookedSeller(slow, ['products/create']);
      await newListing(hook);
      await slow.waitFor((all) => all.length === 1);
      await expect.poll(async () => (await deliveries(hook)).length, { timeout: 10_000 }).toBe(1);
      const [first] = await deliveries(hook);
      expect(first).toMatchObject({ attempt: 1, status_code: null });
      expect(first.error).toMatch(/no answer within/);
      hang = false;
      await h.control('POST', '/clock', { advance_seconds: 61 });
      expect((await deliveries(hook)).map((d) => d.status_code)).toEqual([null, 200]);
    } finally {
      await slow.close();
    }
  });

  it('signs with a rotated secret from the next delivery on', async () => {
    const hook = await hookedSeller(receiver, ['products/create']);
    const rotated = await h.control<Json>('POST', `/webhooks/${hook.id}/rotate`);
    const secret = rotated.body.webhook.secret as string;
    expect(secret).toMatch(/^svc_whsec_/);
    expect(secret).not.toBe(hook.secret);
    const id = await newListing(hook);
    await receiver.waitFor((all) => all.some((r) => r.body.id === id));
    const delivery = receiver.received.find((r) => r.body.id === id)!;
    const header = delivery.headers['x-service-webhook-signature'] as string;
    expect(verifySignature(secret, delivery.raw, header)).toBe(true);
    expect(verifySignature(hook.secret, delivery.raw, header)).toBe(false);
  });

  it('sends only the subscribed topics', async () => {
    const only = await startReceiver();
    try {
      const hook = await hookedSeller(only, ['orders/create']);
      const id = await newListing(hook);
      await h.control('POST', `/listings/${id}/sell`, {});
      await only.waitFor((all) => all.length >= 1);
      await h.control('POST', '/clock', { advance_seconds: 0 });
      expect(only.received.map((r) => r.topic)).toEqual(['orders/create']);
    } finally {
      await only.close();
    }
  });

  it('sends the test button delivery with X-Service-Webhook-Test', async () => {
    const hook = await hookedSeller(receiver);
    const before = receiver.received.length;
    const res = await h.control<Json>('POST', `/webhooks/${hook.id}/test`, {
      topic: 'orders/create',
    });
    expect(res.status).toBe(200);
    expect(res.body.delivery).toMatchObject({
      topic: 'orders/create',
      attempt: 1,
      status_code: 200,
    });
    const delivery = receiver.received[before]!;
    expect(delivery.headers['x-service-webhook-test']).toBe('true');
    expect(delivery.topic).toBe('orders/create');
    expect(delivery.body).toMatchObject({
      name: expect.any(String),
      line_items: [expect.any(Object)],
    });
    expect(
      verifySignature(
        hook.secret,
        delivery.raw,
        delivery.headers['x-service-webhook-signature'] as string,
      ),
    ).toBe(true);
    const log = await deliveries(hook);
    expect(log.at(-1)).toMatchObject({ event_id: delivery.eventId, test: true });
    const bad = await h.control('POST', `/webhooks/${hook.id}/test`, { topic: 'nope' });
    expect(bad.status).toBe(400);
  });

  it('answers 404 for an unknown webhook or event', async () => {
    expect((await h.control('GET', '/webhooks/whk_nope/deliveries')).status).toBe(404);
    expect((await h.control('POST', '/webhooks/whk_nope/rotate')).status).toBe(404);
    expect((await h.control('POST', '/events/evt_nope/redeliver')).status).toBe(404);
  });
});

describe('a durable outbox', () => {
  it('delivers an event committed before a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slabdesk-webhooks-'));
    const db = join(dir, 'sandbox.db');
    const target = await startReceiver();
    target.answer = () => 503;
    try {
      const first = await startHarness({ db, rateLimit: false });
      const hook = await hookedSeller(target, ['orders/create'], first);
      const listingId = await newListing(hook, first);
      const sale = await first.control<Json>('POST', `/listings/${listingId}/sell`, {});
      await target.waitFor((all) => all.length === 1);
      // The sandbox records the failed attempt after the answer: wait for that before closing.
      await expect.poll(async () => (await deliveries(hook, first)).length).toBe(1);
      await first.close();

      target.answer = () => 200;
      const second = await startHarness({ db, rateLimit: false });
      try {
        await second.control('POST', '/clock', { advance_seconds: 61 });
        await target.waitFor((all) => all.length === 2);
        expect(target.received.map((r) => [r.eventId, r.attempt])).toEqual([
          [target.received[0]!.eventId, 1],
          [target.received[0]!.eventId, 2],
        ]);
        expect(target.received[1]!.body.id).toBe(sale.body.order.id);
        const log = await deliveries(hook, second);
        expect(log.map((d) => d.status_code)).toEqual([503, 200]);
      } finally {
        await second.close();
      }
    } finally {
      await target.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('with a test key', () => {
  it('marks deliveries of test records with X-Service-Api-Mode: test', async () => {
    const hook = await hookedSeller(receiver, ['products/create']);
    const key = await h.control<Json>('POST', '/keys', {
      seller_id: hook.sellerId,
      mode: 'test',
      scopes: ['write_listings'],
    });
    const res = await call(h, 'POST', '/listings.json', key.body.key.token, {
      listing: { sku: await registerCert(h, 'PSA'), price: 20 },
    });
    const id = res.body.listing.id as string;
    await receiver.waitFor((all) => all.some((r) => r.body.id === id));
    expect(receiver.received.find((r) => r.body.id === id)!.headers['x-service-api-mode']).toBe(
      'test',
    );
  });
});
