import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { startReceiver, verifySignature, type Receiver } from './webhooks-receiver';
import {
  call,
  createListing,
  deleteListing,
  getLevel,
  getProduct,
  registerCert,
  updateListing,
  type Json,
} from './writes-helpers';

/**
 * The marketplace's life over HTTP: each transition updates listings, orders and inventory
 * levels consistently and fires the topic the spec names, seen by a real receiver.
 */
let h: Harness;
let receiver: Receiver;
let seller: { sellerId: string; token: string; keyId: string };
let secret: string;

const HOUR = 3_600_000;

beforeAll(async () => {
  h = await startHarness({ rateLimit: false });
  receiver = await startReceiver();
  seller = await h.seller();
  const hook = await h.control<Json>('POST', '/webhooks', {
    seller_id: seller.sellerId,
    url: receiver.url,
  });
  secret = hook.body.webhook.secret;
});
afterAll(async () => {
  await h.close();
  await receiver.close();
});
beforeEach(flush);

/** Delivers everything due (the clock hook waits for the outbox to drain), then forgets it. */
async function flush(): Promise<void> {
  await h.control('POST', '/clock', { advance_seconds: 0 });
  receiver.received.length = 0;
}

/** Waits for the events with these topics and returns them in order, each signature verified. */
async function events(count: number): Promise<{ topic: string; body: Json }[]> {
  await receiver.waitFor((all) => all.length >= count);
  // Nothing more is due: the clock endpoint returns once every due delivery was attempted.
  await h.control('POST', '/clock', { advance_seconds: 0 });
  expect(receiver.received).toHaveLength(count);
  return receiver.received.map((r) => {
    expect(verifySignature(secret, r.raw, r.headers['x-service-webhook-signature'] as string)).toBe(
      true,
    );
    return { topic: r.topic, body: r.body };
  });
}

async function live(extra: Record<string, unknown> = {}): Promise<Json> {
  const res = await createListing(h, seller.token, {
    sku: await registerCert(h, 'PSA'),
    price: '200.00',
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.listing;
}

const getOrder = async (id: string) =>
  (await call(h, 'GET', `/orders/${id}.json`, seller.token)).body.order as Json;

describe('listing writes fire products events', () => {
  it('products/create, products/update and products/delete carry the product as it stands', async () => {
    const listing = await live();
    await updateListing(h, seller.token, listing.id, { price: 250 });
    await deleteListing(h, seller.token, listing.id);
    await deleteListing(h, seller.token, listing.id); // idempotent: no second event
    const seen = await events(3);
    expect(seen.map((e) => e.topic)).toEqual([
      'products/create',
      'products/update',
      'products/delete',
    ]);
    expect(seen[1]!.body.variants[0].price).toBe('250.00');
    expect(seen[2]!.body).toEqual(await getProduct(h, seller.token, listing.id));
    expect(seen[2]!.body).toMatchObject({
      status: 'archived',
      svc_unavailable_reason: 'deactivated_by_seller',
    });
  });
});

describe('sales and the order lifecycle', () => {
  it('a sale archives the listing as sold and creates a paid order', async () => {
    const listing = await live();
    await flush();
    const sale = await h.control<Json>('POST', `/listings/${listing.id}/sell`, {});
    expect(sale.status).toBe(200);
    const order = sale.body.order;
    expect(order).toMatchObject({
      financial_status: 'paid',
      fulfillment_status: null,
      subtotal_price: '200.00',
      svc_seller_shipment: { status: 'pending_shipment' },
      svc_authentication: { status: 'pending' },
      svc_payout: { status: 'pending' },
    });
    expect(order.line_items[0]).toMatchObject({ product_id: listing.id, price: '200.00' });
    const seen = await events(2);
    expect(seen.map((e) => e.topic)).toEqual(['products/update', 'orders/create']);
    expect(seen[0]!.body).toMatchObject({
      status: 'archived',
      svc_unavailable_reason: 'sold',
      svc_can_reactivate: false,
    });
    expect(seen[1]!.body).toEqual(await getOrder(order.id));
    const single = await call(h, 'GET', `/listings/${listing.id}.json`, seller.token);
    expect(single.body.listing).toMatchObject({
      status: 'archived',
      unavailable_reason: 'sold',
      can_reactivate: false,
    });
    expect(await getLevel(h, seller.token, listing.card.id)).toMatchObject({
      available: 0,
      svc_unavailable_reason: 'sold',
      svc_can_reactivate: false,
    });
    const again = await h.control('POST', `/listings/${listing.id}/sell`, {});
    expect(again.status).toBe(409);
  });

  it('each advance fires orders/updated, through the six stages to the payout', async () => {
    const listing = await live();
    const sale = await h.control<Json>('POST', `/listings/${listing.id}/sell`, {});
    const orderId = sale.body.order.id as string;
    await flush();
    const stages: Json[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await h.control<Json>('POST', `/orders/${orderId}/advance`, {});
      expect(res.status).toBe(200);
      stages.push(res.body.order);
    }
    expect(stages[0].svc_seller_shipment.tracking_number).toEqual(expect.any(String));
    expect(stages[1].svc_seller_shipment.status).toBe('delivered');
    expect(stages[2].svc_authentication.status).toBe('passed');
    expect(stages[3].fulfillment_status).toBe('fulfilled');
    expect(stages[4].svc_buyer_delivery.status).toBe('delivered');
    expect(stages[5].svc_payout).toMatchObject({ status: 'paid', amount: expect.any(String) });
    expect(stages[5].closed_at).toEqual(expect.any(String));
    const seen = await events(6);
    expect(seen.every((e) => e.topic === 'orders/updated')).toBe(true);
    expect(seen[5]!.body).toEqual(await getOrder(orderId));
    expect((await h.control('POST', `/orders/${orderId}/advance`, {})).status).toBe(409);
    expect(await getLevel(h, seller.token, listing.card.id)).toMatchObject({
      svc_unavailable_reason: 'shipped',
      location_id: 'loc_vault',
    });
    const closed = await call(h, 'GET', '/orders.json?status=closed', seller.token);
    expect((closed.body.orders as Json[]).map((o) => o.id)).toContain(orderId);
  });

  it('a cancellation fires orders/cancelled and products/update, and frees the card', async () => {
    const listing = await live();
    const sale = await h.control<Json>('POST', `/listings/${listing.id}/sell`, {});
    await flush();
    const res = await h.control<Json>('POST', `/orders/${sale.body.order.id}/cancel`, {
      reason: 'buyer',
    });
    expect(res.body.order).toMatchObject({
      financial_status: 'refunded',
      cancelled_at: expect.any(String),
    });
    const seen = await events(2);
    expect(seen.map((e) => e.topic)).toEqual(['orders/cancelled', 'products/update']);
    expect(seen[0]!.body.cancelled_at).toEqual(expect.any(String));
    expect(seen[1]!.body).toMatchObject({
      svc_unavailable_reason: 'order_cancelled',
      svc_can_reactivate: true,
    });
    expect(await getLevel(h, seller.token, listing.card.id)).toMatchObject({
      svc_unavailable_reason: 'order_cancelled',
      svc_can_reactivate: true,
    });
    // The card is the seller's to relist: reactivation works again.
    const back = await updateListing(h, seller.token, listing.id, { status: 'active' });
    expect(back.body.listing.status).toBe('active');
  });

  it('a refund fires orders/updated with the refund state', async () => {
    const listing = await live();
    const sale = await h.control<Json>('POST', `/listings/${listing.id}/sell`, {});
    await flush();
    const partial = await h.control<Json>('POST', `/orders/${sale.body.order.id}/refund`, {
      amount: '50.00',
    });
    expect(partial.body.order).toMatchObject({
      financial_status: 'partially_refunded',
      total_refunded: '50.00',
    });
    const full = await h.control<Json>('POST', `/orders/${sale.body.order.id}/refund`, {});
    expect(full.body.order.financial_status).toBe('refunded');
    expect(full.body.order.total_refunded).toBe(full.body.order.total_price);
    const seen = await events(2);
    expect(seen.map((e) => [e.topic, e.body.financial_status])).toEqual([
      ['orders/updated', 'partially_refunded'],
      ['orders/updated', 'refunded'],
    ]);
  });
});

describe('the clock', () => {
  it('ends windows: deactivated with products/update, or renewed with auto_relist', async () => {
    const ending = await live({ duration_hours: 168 });
    const renewing = await live({ duration_hours: 168, auto_relist: true });
    const renewedEnd = Date.parse(
      (await getProduct(h, seller.token, renewing.id)).svc_window_ends_at,
    );
    await flush();
    await h.control('POST', '/clock', { advance_seconds: 169 * 3600 });
    const seen = await events(1);
    expect(seen[0]).toMatchObject({
      topic: 'products/update',
      body: { id: ending.id, status: 'archived', svc_unavailable_reason: 'expired' },
    });
    const single = await call(h, 'GET', `/listings/${ending.id}.json`, seller.token);
    expect(single.body.listing).toMatchObject({
      status: 'archived',
      unavailable_reason: 'expired',
      can_reactivate: true,
    });
    expect(await getLevel(h, seller.token, ending.card.id)).toMatchObject({
      svc_unavailable_reason: 'expired',
      svc_can_reactivate: true,
    });
    const renewed = await getProduct(h, seller.token, renewing.id);
    expect(renewed.status).toBe('active');
    expect(Date.parse(renewed.svc_window_ends_at)).toBe(renewedEnd + 168 * HOUR);
  });

  it('releases scheduled listings with products/update', async () => {
    const now = Date.parse((await h.control<{ now: string }>('GET', '/clock')).body.now);
    const scheduled = await live({ scheduled_go_live_at: new Date(now + HOUR).toISOString() });
    await flush();
    await h.control('POST', '/clock', { advance_seconds: 2 * 3600 });
    const seen = await events(1);
    expect(seen[0]).toMatchObject({
      topic: 'products/update',
      body: { id: scheduled.id, status: 'active', svc_unavailable_reason: null },
    });
  });
});
