import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LIVE_TOKEN, DEMO_TEST_TOKEN, optionsFromEnv } from '../../src/sandbox';
import { parseLink, startHarness, type Harness } from '../support/sandbox-harness';
import { startReceiver, verifySignature, type Receiver } from './webhooks-receiver';
import {
  call,
  createListing,
  deleteListing,
  registerCert,
  updateListing,
  type Json,
} from './writes-helpers';

/*
 * SANDBOX_SHAPES=documented: every read view of the public API serves exactly the fields that the
 * spec's tables document, nothing more. The key sets below are written out from the spec
 * ("Resources and their fields", "Other listing response shapes"), not taken from the sandbox.
 * Nested objects are named `parent.child`, objects inside arrays `parent[].child`.
 */

const LISTING_LIST = [
  'id',
  'title',
  'status',
  'price',
  'card',
  'card.id',
  'card.title',
  'card.cert_number',
  'card.grader',
  'card.grade',
  'card.year',
  'card.set',
  'card.category',
  'is_lot',
  'card_count',
  'accepts_offers',
  'created_at',
  'listed_at',
];

const LISTING_SINGLE = [
  'id',
  'title',
  'status',
  'price',
  'card',
  'card.id',
  'card.title',
  'card.cert_number',
  'card.grader',
  'card.grade',
  'card.url',
  'unavailable_reason',
  'can_reactivate',
  'url',
];

const LISTING_CREATE = [
  'id',
  'title',
  'description',
  'status',
  'price',
  'card',
  'card.id',
  'card.cert_number',
  'card.grader',
  'url',
];
const LISTING_UPDATE = ['id', 'title', 'status', 'price', 'minimum_offer', 'accepts_offers'];
const LISTING_DELETE = ['id', 'title', 'status', 'unavailable_reason', 'can_reactivate', 'price'];

/** What the spec guarantees of the listing in product form: its id, title, status and reason. */
const PRODUCT = ['id', 'title', 'status', 'svc_unavailable_reason'];

const LINE_ITEM = [
  'id',
  'product_id',
  'title',
  'sku',
  'quantity',
  'price',
  'inventory_item_id',
  'svc_inventory_item_ids',
  'svc_is_lot',
];

const ORDER_LIST = [
  'id',
  'name',
  'order_number',
  'created_at',
  'closed_at',
  'cancelled_at',
  'financial_status',
  'fulfillment_status',
  'currency',
  'subtotal_price',
  'total_tax',
  'total_price',
  'total_refunded',
  'test',
  'line_items',
  ...LINE_ITEM.map((k) => `line_items[].${k}`),
  'svc_order_code',
  'svc_sold_at',
  'svc_sale_channel',
  'svc_delivery_method',
  'svc_seller_shipment',
  ...[
    'status',
    'tracking_number',
    'ship_by',
    'cancel_after',
    'label_url',
    'carrier_code',
    'shipped_at',
    'delivered_to_hub_at',
  ].map((k) => `svc_seller_shipment.${k}`),
  'svc_authentication',
  'svc_authentication.status',
  'svc_authentication.completed_at',
  'svc_payout',
  ...['status', 'amount', 'platform_fee', 'paid_at'].map((k) => `svc_payout.${k}`),
];

/** The narrower reading: `total_tax` "appears in the list view", so the single view leaves it out. */
const ORDER_SINGLE = [
  ...ORDER_LIST.filter((k) => k !== 'total_tax'),
  'line_items[].fulfillment_status',
  'svc_buyer_delivery',
  ...['status', 'shipped_at', 'delivered_at'].map((k) => `svc_buyer_delivery.${k}`),
];

const INVENTORY_ITEM = [
  'id',
  'sku',
  'cost',
  'tracked',
  'requires_shipping',
  'created_at',
  'svc_cert_number',
  'svc_grader',
  'svc_grade',
  'svc_player',
  'svc_year',
  'svc_card_set',
];

const INVENTORY_LEVEL = [
  'inventory_item_id',
  'location_id',
  'available',
  'updated_at',
  'svc_unavailable_reason',
  'svc_reason_detail',
  'svc_can_reactivate',
];

const SELLER_LOCATION = [
  'id',
  'name',
  'active',
  'svc_location_type',
  'svc_seller_controlled',
  'svc_writable',
];
const HUB_LOCATION = [...SELLER_LOCATION, 'country_code'];

const PING = [
  'ok',
  'api_version',
  'mode',
  'seller_id',
  'key_id',
  'scopes',
  'request_id',
  'server_time',
];

/** Every key of a record, recursively: `a`, `a.b` for a nested object, `a[].b` inside arrays. */
function paths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) {
    return [...new Set(value.flatMap((element) => paths(element, `${prefix}[]`)))];
  }
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    return [path, ...paths(child, path)];
  });
}

const sorted = (keys: readonly string[]) => [...keys].sort();

/** Asserts that a record has exactly the documented keys, no more and no fewer. */
function expectKeys(record: unknown, documented: readonly string[], what: string) {
  expect(sorted(paths(record)), what).toEqual(sorted(documented));
}

/**
 * The narrower reading of the order's timestamps that the spec does not call nullable (it marks
 * `tracking_number` and `label_url` so, not these): left out until they happen, never null.
 */
const UNTIL_SET = [
  ...['ship_by', 'cancel_after', 'carrier_code', 'shipped_at', 'delivered_to_hub_at'].map(
    (k) => `svc_seller_shipment.${k}`,
  ),
  'svc_buyer_delivery.shipped_at',
  'svc_buyer_delivery.delivered_at',
];

const valueAt = (record: Json, path: string): unknown =>
  path.split('.').reduce<Json>((value, key) => value?.[key], record);

/** An order's keys: the documented ones, those of UNTIL_SET only once set (never null). */
function expectOrderKeys(order: Json, documented: readonly string[], what: string) {
  const present = new Set(paths(order));
  expectKeys(
    order,
    documented.filter((k) => !UNTIL_SET.includes(k) || present.has(k)),
    what,
  );
  for (const path of UNTIL_SET) expect(valueAt(order, path), `${what}: ${path}`).not.toBeNull();
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    seed: 'demo',
    shapes: 'documented',
    rateLimit: false,
    webhookTimeoutMs: 300,
  });
});
afterAll(() => h.close());

async function walk(path: string, envelope: string, token = DEMO_LIVE_TOKEN): Promise<Json[]> {
  const rows: Json[] = [];
  let url: string | undefined = `${path}${path.includes('?') ? '&' : '?'}limit=250`;
  while (url) {
    const response = await h.api(url, { token });
    expect(response.status).toBe(200);
    rows.push(...(((await response.json()) as Record<string, Json[]>)[envelope] ?? []));
    url = parseLink(response.headers.get('link')).next;
  }
  return rows;
}

const get = async (path: string, token = DEMO_LIVE_TOKEN) => {
  const res = await call(h, 'GET', path, token);
  expect(res.status, path).toBe(200);
  return res.body;
};

describe('SANDBOX_SHAPES', () => {
  it('is read by optionsFromEnv: full, documented, or an error', () => {
    expect(optionsFromEnv({ SANDBOX_SHAPES: 'documented' }).shapes).toBe('documented');
    expect(optionsFromEnv({ SANDBOX_SHAPES: 'full' }).shapes).toBe('full');
    expect(optionsFromEnv({}).shapes).toBeUndefined();
    expect(() => optionsFromEnv({ SANDBOX_SHAPES: 'strict' })).toThrow(
      'SANDBOX_SHAPES must be full or documented, not "strict"',
    );
  });
});

describe('documented shapes: listings', () => {
  it('serves every row of the list view with exactly the list view fields, lots and every status among them', async () => {
    const listings = await walk('/listings.json', 'listings');
    expect(listings.length).toBeGreaterThanOrEqual(550);
    for (const l of listings) expectKeys(l, LISTING_LIST, `listing ${l.id}`);
    expect(new Set(listings.map((l) => l.status))).toEqual(
      new Set(['active', 'draft', 'archived']),
    );
    expect(listings.some((l) => l.is_lot === true && l.card_count > 1)).toBe(true);
  });

  it('serves the single view with exactly its fields, for every status, a sold one and a lot', async () => {
    const listings = await walk('/listings.json?fields=id,status,is_lot', 'listings');
    const orders = await walk('/orders.json?fields=line_items,cancelled_at', 'orders');
    const soldId = orders.find((o) => o.cancelled_at === null).line_items[0].product_id as string;
    const picks = new Set<string>([soldId]);
    for (const s of ['active', 'draft', 'archived'])
      picks.add(listings.find((l) => l.status === s)!.id);
    picks.add(listings.find((l) => l.is_lot)!.id);
    for (const id of picks) {
      const { listing } = await get(`/listings/${id}.json`);
      expectKeys(listing, LISTING_SINGLE, `listing ${id}`);
      expect(await get(`/listings/${id}`)).toEqual({ listing });
    }
    const { listing: sold } = await get(`/listings/${soldId}.json`);
    expect(sold).toMatchObject({
      status: 'archived',
      unavailable_reason: 'sold',
      can_reactivate: false,
    });
    expect(sold.url).toMatch(/^http:\/\/.+\/market\/listings\//);
    expect(sold.card.url).toMatch(new RegExp(`/market/cards/${sold.card.id}$`));
  });

  it('serves the product alias with no more than the product form guarantees', async () => {
    const products = await walk('/products.json', 'products');
    expect(products.length).toBeGreaterThanOrEqual(550);
    for (const p of products) expectKeys(p, PRODUCT, `product ${p.id}`);
    const sold = products.find((p) => p.svc_unavailable_reason === 'sold');
    expect(sold).toMatchObject({ status: 'archived' });
    const { product } = await get(`/products/${sold.id}.json`);
    expectKeys(product, PRODUCT, 'single product');
    expect(product).toEqual(sold);
  });

  it('keeps nullable documented timestamps null, and the test key sees its own records', async () => {
    const listings = await walk('/listings.json', 'listings');
    const scheduled = listings.filter((l) => l.listed_at === null);
    expect(scheduled.length).toBeGreaterThan(0);
    for (const l of scheduled) expectKeys(l, LISTING_LIST, `listing ${l.id}`);
    const testRows = await walk('/listings.json', 'listings', DEMO_TEST_TOKEN);
    expect(testRows.length).toBeGreaterThan(0);
    for (const l of testRows) expectKeys(l, LISTING_LIST, `test listing ${l.id}`);
  });
});

describe('documented shapes: orders', () => {
  it('serves every order of the list view with exactly the Order table, without the single-view extras', async () => {
    const orders = await walk('/orders.json', 'orders');
    expect(orders.length).toBeGreaterThanOrEqual(180);
    for (const o of orders) expectOrderKeys(o, ORDER_LIST, `order ${o.id}`);
    // Shipped orders have their shipment's time, orders still to ship leave it out.
    expect(orders.some((o) => 'shipped_at' in o.svc_seller_shipment)).toBe(true);
    expect(orders.some((o) => !('shipped_at' in o.svc_seller_shipment))).toBe(true);
    // Several stages: unshipped, at the hub, fulfilled, paid out, cancelled, refunded.
    const shipment = new Set(orders.map((o) => o.svc_seller_shipment.status));
    expect(shipment.has('pending_shipment') && shipment.has('delivered')).toBe(true);
    expect(orders.some((o) => o.fulfillment_status === 'fulfilled')).toBe(true);
    expect(orders.some((o) => o.svc_payout.status === 'paid')).toBe(true);
    expect(orders.some((o) => o.cancelled_at !== null)).toBe(true);
    expect(orders.some((o) => o.financial_status === 'refunded')).toBe(true);
    // Null timestamps stay null (and present).
    expect(orders.some((o) => o.closed_at === null && o.svc_payout.paid_at === null)).toBe(true);
    expect(orders.some((o) => o.line_items[0].svc_is_lot === true)).toBe(true);
  });

  it('serves the single view with svc_buyer_delivery and the line item fulfillment_status, by id or code', async () => {
    const orders = await walk('/orders.json', 'orders');
    // One order of each distinct stage: shipment, authentication, payout, buyer fulfilment, cancellation.
    const stages = new Map<string, Json>();
    for (const o of orders) {
      const stage = [
        o.svc_seller_shipment.status,
        o.svc_authentication.status,
        o.svc_payout.status,
        o.fulfillment_status,
        o.cancelled_at === null,
        o.financial_status,
      ].join('|');
      if (!stages.has(stage)) stages.set(stage, o);
    }
    expect(stages.size).toBeGreaterThanOrEqual(6);
    for (const o of stages.values()) {
      const { order } = await get(`/orders/${o.id}.json`);
      expectOrderKeys(order, ORDER_SINGLE, `order ${o.id}`);
      expect(await get(`/orders/${o.name}.json`)).toEqual({ order });
    }
    for (const o of (await walk('/orders.json', 'orders', DEMO_TEST_TOKEN)).slice(0, 3)) {
      expectOrderKeys(o, ORDER_LIST, `test order ${o.id}`);
      expectOrderKeys(
        (await get(`/orders/${o.id}.json`, DEMO_TEST_TOKEN)).order,
        ORDER_SINGLE,
        o.id,
      );
    }
  });
});

describe('documented shapes: inventory, locations, ping', () => {
  it('serves inventory items and levels with exactly their tables', async () => {
    const items = await walk('/inventory_items.json', 'inventory_items');
    expect(items.length).toBeGreaterThan(500);
    for (const i of items) expectKeys(i, INVENTORY_ITEM, `item ${i.id}`);
    const levels = await walk('/inventory_levels.json', 'inventory_levels');
    expect(levels.map((l) => l.inventory_item_id)).toEqual(items.map((i) => i.id));
    // The narrower reading of "explains a zero": an available card's level has no reason fields.
    const explained = ['svc_unavailable_reason', 'svc_reason_detail'];
    for (const l of levels) {
      const keys =
        l.available === 1 ? INVENTORY_LEVEL.filter((k) => !explained.includes(k)) : INVENTORY_LEVEL;
      expectKeys(l, keys, `level ${l.inventory_item_id}`);
    }
    expect(levels.some((l) => l.available === 1)).toBe(true);
    expect(levels.some((l) => l.available === 0)).toBe(true);
  });

  it('serves the two locations, country_code on the hub only, and the ping object', async () => {
    const { locations } = await get('/locations.json');
    expect(locations).toHaveLength(2);
    expectKeys(locations[0], SELLER_LOCATION, 'seller location');
    expectKeys(locations[1], HUB_LOCATION, 'hub location');
    expect(locations[1]).toMatchObject({ id: 'loc_vault', country_code: 'US' });
    for (const token of [DEMO_LIVE_TOKEN, DEMO_TEST_TOKEN]) {
      const { ping } = await get('/ping', token);
      expectKeys(ping, PING, 'ping');
      expect(ping.ok).toBe(true);
    }
  });
});

describe('documented shapes: the platform behaves the same', () => {
  it('keeps headers, Link cursors, fields= and updated_at_min', async () => {
    const first = await call(h, 'GET', '/listings.json?limit=5&fields=id,price', DEMO_LIVE_TOKEN);
    expect(first.status).toBe(200);
    for (const header of [
      'x-service-api-call-limit',
      'x-service-api-version',
      'x-service-api-mode',
      'x-request-id',
    ]) {
      expect(first.headers.get(header), header).toBeTruthy();
    }
    expect(first.body.listings).toHaveLength(5);
    for (const row of first.body.listings) expect(Object.keys(row).sort()).toEqual(['id', 'price']);
    const next = parseLink(first.headers.get('link')).next!;
    const second = await call(h, 'GET', next, DEMO_LIVE_TOKEN);
    expect(second.status).toBe(200);
    expect(second.body.listings).toHaveLength(5);
    expect(second.body.listings[0].id).not.toBe(first.body.listings[0].id);
    const future = await call(
      h,
      'GET',
      '/listings.json?updated_at_min=2100-01-01',
      DEMO_LIVE_TOKEN,
    );
    expect(future.body.listings).toEqual([]);
    const single = await call(
      h,
      'GET',
      `/orders/${(await walk('/orders.json?fields=id', 'orders'))[0].id}.json?fields=id,svc_buyer_delivery`,
      DEMO_LIVE_TOKEN,
    );
    expect(Object.keys(single.body.order).sort()).toEqual(['id', 'svc_buyer_delivery']);
  });

  it('keeps error envelopes and degraded records', async () => {
    const missing = await call(h, 'GET', '/listings/lst_nope.json', DEMO_LIVE_TOKEN);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      errors: expect.any(String),
      svc_error: { code: 'not_found', request_id: expect.any(String) },
    });
    const bad = await call(h, 'GET', '/orders.json?limit=0', DEMO_LIVE_TOKEN);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toHaveProperty('limit');
    const rows = await walk('/listings.json?fields=id', 'listings');
    const target = rows[2].id as string;
    await h.control('PUT', '/faults', { degraded_ids: [target] });
    try {
      const page = await call(h, 'GET', '/listings.json?limit=5', DEMO_LIVE_TOKEN);
      expect(page.body.listings[2]).toEqual({
        id: target,
        svc_serialization_error: { code: 'serialization_failed', message: expect.any(String) },
      });
      for (const l of page.body.listings.filter((_: Json, i: number) => i !== 2))
        expectKeys(l, LISTING_LIST, l.id);
      const alone = await call(h, 'GET', `/listings/${target}.json`, DEMO_LIVE_TOKEN);
      expect(alone.status).toBe(200);
      expect(Object.keys(alone.body.listing)).toEqual(['id', 'svc_serialization_error']);
    } finally {
      await h.control('PUT', '/faults', { degraded_ids: [] });
    }
  });

  it('leaves the control API unchanged', async () => {
    const seller = await h.seller();
    const res = await createListing(h, seller.token, {
      sku: await registerCert(h, 'PSA'),
      price: 40,
    });
    const sale = await h.control<Json>('POST', `/listings/${res.body.listing.id}/sell`, {});
    expect(sale.status).toBe(200);
    // The control API answers the order's full single view, the sandbox's extras included.
    expect(sale.body.order).toMatchObject({
      updated_at: expect.any(String),
      cancel_reason: null,
      financial_status: 'paid',
    });
  });
});

describe('documented shapes: writes', () => {
  it('creates, updates and deletes, answering exactly the documented write shapes', async () => {
    const seller = await h.seller();
    const cert = await registerCert(h, 'PSA');
    const created = await createListing(h, seller.token, {
      sku: cert,
      price: 100,
      description: 'Clean slab.',
      minimum_offer: 20,
      auto_relist: true,
    });
    expect(created.status).toBe(201);
    expectKeys(created.body.listing, LISTING_CREATE, 'create');
    expect(created.body.listing).toMatchObject({
      status: 'active',
      price: '100.00',
      description: 'Clean slab.',
      card: { cert_number: cert, grader: 'PSA' },
    });
    const id = created.body.listing.id as string;
    const updated = await updateListing(h, seller.token, id, { price: 90, minimum_offer: 30 });
    expect(updated.status).toBe(200);
    expectKeys(updated.body.listing, LISTING_UPDATE, 'update');
    expect(updated.body.listing).toMatchObject({ price: '90.00', minimum_offer: '30.00' });
    const { listing } = await get(`/listings/${id}.json`, seller.token);
    expectKeys(listing, LISTING_SINGLE, 'single after update');
    expect(listing).toMatchObject({ price: '90.00', unavailable_reason: null });
    const deleted = await deleteListing(h, seller.token, id);
    expect(deleted.status).toBe(200);
    expectKeys(deleted.body.listing, LISTING_DELETE, 'delete');
    expect(deleted.body.listing).toMatchObject({
      status: 'archived',
      unavailable_reason: 'deactivated_by_seller',
      can_reactivate: true,
    });
  });

  it('answers the documented product form on the alias paths', async () => {
    const seller = await h.seller();
    const created = await call(h, 'POST', '/products.json', seller.token, {
      product: { variants: [{ sku: await registerCert(h, 'BGS'), price: '55.00' }] },
    });
    expect(created.status).toBe(201);
    expectKeys(created.body.product, PRODUCT, 'product create');
    const id = created.body.product.id as string;
    const updated = await call(h, 'PUT', `/products/${id}.json`, seller.token, {
      product: { title: 'Renamed slab' },
    });
    expect(updated.status).toBe(200);
    expectKeys(updated.body.product, PRODUCT, 'product update');
    expect(updated.body.product.title).toBe('Renamed slab');
    const deleted = await call(h, 'DELETE', `/products/${id}.json`, seller.token);
    expect(deleted.status).toBe(200);
    expect(deleted.body.product).toEqual({
      id,
      title: 'Renamed slab',
      status: 'archived',
      svc_unavailable_reason: 'deactivated_by_seller',
    });
  });
});

describe('documented shapes: webhook payloads', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it('delivers the documented product and order forms, signed over the bytes sent', async () => {
    const seller = await h.seller();
    const hook = await h.control<Json>('POST', '/webhooks', {
      seller_id: seller.sellerId,
      url: receiver.url,
    });
    expect(hook.status).toBe(200);
    const secret = hook.body.webhook.secret as string;
    const created = await createListing(h, seller.token, {
      sku: await registerCert(h, 'PSA'),
      price: 25,
    });
    const id = created.body.listing.id as string;
    const sale = await h.control<Json>('POST', `/listings/${id}/sell`, {});
    const orderId = sale.body.order.id as string;
    await receiver.waitFor((all) => all.some((r) => r.topic === 'orders/create'));
    const product = receiver.received.filter((r) => r.body.id === id);
    expect(product.map((r) => r.topic)).toEqual(['products/create', 'products/update']);
    for (const r of product) {
      expectKeys(r.body, PRODUCT, r.topic);
      expect(
        verifySignature(secret, r.raw, r.headers['x-service-webhook-signature'] as string),
      ).toBe(true);
    }
    expect(product[1]!.body).toEqual((await get(`/products/${id}.json`, seller.token)).product);
    const order = receiver.received.find((r) => r.topic === 'orders/create')!;
    expectOrderKeys(order.body, ORDER_SINGLE, 'orders/create');
    expect(order.body).toEqual((await get(`/orders/${orderId}.json`, seller.token)).order);
    expect(
      verifySignature(secret, order.raw, order.headers['x-service-webhook-signature'] as string),
    ).toBe(true);

    const before = receiver.received.length;
    const test = await h.control<Json>('POST', `/webhooks/${hook.body.webhook.id}/test`, {
      topic: 'orders/cancelled',
    });
    expect(test.body.delivery).toMatchObject({ status_code: 200 });
    expectOrderKeys(receiver.received[before]!.body, ORDER_SINGLE, 'test button');
  });
});
