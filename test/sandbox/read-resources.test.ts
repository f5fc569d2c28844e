import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEMO_LIVE_TOKEN, DEMO_SELLER_ID, DEMO_TEST_TOKEN } from '../../src/sandbox';
import { parseLink, startHarness, type Harness } from '../support/sandbox-harness';
import { call, createListing, deleteListing, getProduct, registerCert } from './writes-helpers';

/**
 * The spec's field tables, written independently of the client's schemas, as the contract's
 * oracle; the listing views add the extras of the default (`full`) shapes: the sale terms, the
 * window, availability and the card's player and variant.
 */
const money = z.string().regex(/^\d+\.\d{2}$/);
const time = z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const grader = z.enum(['PSA', 'BGS', 'SGC', 'CGC']);
const status = z.enum(['active', 'draft', 'archived']);
const card = z.strictObject({
  id: z.string(),
  title: z.string(),
  cert_number: z.string(),
  grader,
  grade: z.string(),
  year: z.number().int().nullable(),
  set: z.string(),
  category: z.string(),
  player: z.string().nullable(),
  variant: z.string(),
});
const listItem = z.strictObject({
  id: z.string(),
  title: z.string(),
  status,
  price: money,
  card,
  is_lot: z.boolean(),
  card_count: z.number().int().min(1),
  accepts_offers: z.boolean(),
  created_at: time,
  listed_at: time.nullable(),
  updated_at: time,
  unavailable_reason: z.string().nullable(),
  can_reactivate: z.boolean(),
  url: z.url(),
  description: z.string(),
  minimum_offer: money.nullable(),
  accepts_trades: z.boolean(),
  auto_relist: z.boolean(),
  promoted: z.boolean(),
  duration_hours: z.union([z.literal(168), z.literal(336), z.literal(504), z.literal(720)]),
  window_ends_at: time.nullable(),
  scheduled_go_live_at: time.nullable(),
});
const single = listItem.extend({
  card: card.extend({ url: z.url() }),
  images: z.array(
    z.strictObject({ id: z.string(), position: z.number().int().min(1), src: z.url() }),
  ),
});
const shipment = z.strictObject({
  status: z.string(),
  tracking_number: z.string().nullable(),
  ship_by: time,
  cancel_after: time,
  label_url: z.string().nullable(),
  carrier_code: z.string(),
  shipped_at: time.nullable(),
  delivered_to_hub_at: time.nullable(),
});
const lineItem = z.strictObject({
  id: z.string(),
  product_id: z.string(),
  title: z.string(),
  sku: z.string(),
  quantity: z.literal(1),
  price: money,
  inventory_item_id: z.string(),
  svc_inventory_item_ids: z.array(z.string()).min(1),
  svc_is_lot: z.boolean(),
  fulfillment_status: z.string().optional(),
});
const order = z.strictObject({
  id: z.string(),
  name: z.string().regex(/^[A-Z]{2}-[A-Z0-9]{6}$/),
  order_number: z.number().int(),
  created_at: time,
  updated_at: time,
  closed_at: time.nullable(),
  cancelled_at: time.nullable(),
  cancel_reason: z.string().nullable(),
  financial_status: z.enum(['authorized', 'paid', 'partially_refunded', 'refunded', 'voided']),
  fulfillment_status: z.literal('fulfilled').nullable(),
  currency: z.literal('USD'),
  subtotal_price: money,
  total_tax: money,
  total_price: money,
  total_refunded: money,
  test: z.boolean(),
  line_items: z.array(lineItem).length(1),
  svc_order_code: z.string(),
  svc_sold_at: time,
  svc_sale_channel: z.string(),
  svc_delivery_method: z.string(),
  svc_seller_shipment: shipment,
  svc_authentication: z.strictObject({ status: z.string(), completed_at: time.nullable() }),
  svc_buyer_delivery: z
    .strictObject({
      status: z.string(),
      shipped_at: time.nullable(),
      delivered_at: time.nullable(),
    })
    .optional(),
  svc_payout: z.strictObject({
    status: z.string(),
    amount: money.nullable(),
    platform_fee: money,
    paid_at: time.nullable(),
  }),
});
const inventoryItem = z.object({
  id: z.string(),
  sku: z.string(),
  cost: money,
  tracked: z.literal(true),
  requires_shipping: z.literal(true),
  created_at: time,
  svc_cert_number: z.string(),
  svc_grader: grader,
  svc_grade: z.string(),
  svc_player: z.string(),
  svc_year: z.string(),
  svc_card_set: z.string(),
});
const level = z.strictObject({
  inventory_item_id: z.string(),
  location_id: z.string(),
  available: z.union([z.literal(0), z.literal(1)]),
  updated_at: time,
  svc_unavailable_reason: z.string(),
  svc_reason_detail: z.string().min(1),
  svc_can_reactivate: z.boolean(),
});

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: 'demo', rateLimit: false });
});
afterAll(() => h.close());

async function walk<T>(path: string, envelope: string, token = DEMO_LIVE_TOKEN): Promise<T[]> {
  const rows: T[] = [];
  let url: string | undefined = `${path}${path.includes('?') ? '&' : '?'}limit=250`;
  while (url) {
    const response = await h.api(url, { token });
    expect(response.status).toBe(200);
    rows.push(...(((await response.json()) as Record<string, T[]>)[envelope] ?? []));
    url = parseLink(response.headers.get('link')).next;
  }
  return rows;
}

describe('the demo seed through the read API', () => {
  it('has about 600 listings in every status and grader, lots among them, in the list view shape', async () => {
    const listings = await walk<z.infer<typeof listItem>>('/listings.json', 'listings');
    expect(listings.length).toBeGreaterThanOrEqual(550);
    for (const l of listings) listItem.parse(l);
    expect(new Set(listings.map((l) => l.status))).toEqual(
      new Set(['active', 'draft', 'archived']),
    );
    expect(new Set(listings.map((l) => l.card.grader))).toEqual(
      new Set(['PSA', 'BGS', 'SGC', 'CGC']),
    );
    expect(listings.some((l) => l.is_lot && l.card_count > 1)).toBe(true);
    const created = listings.map((l) => l.created_at);
    expect([...created].sort()).toEqual(created);
    const grades = new Set(listings.map((l) => l.card.grade));
    expect(grades.has('10') && grades.has('9.5')).toBe(true);
  });

  it('serves the single view with or without .json, and the product alias', async () => {
    const [first] = await walk<{ id: string }>('/listings.json?fields=id', 'listings');
    const a = await h.api(`/listings/${first!.id}.json`, { token: DEMO_LIVE_TOKEN });
    const b = await h.api(`/listings/${first!.id}`, { token: DEMO_LIVE_TOKEN });
    const bodyA = (await a.json()) as { listing: unknown };
    const bodyB = (await b.json()) as { listing: unknown };
    single.parse(bodyA.listing);
    expect(bodyB.listing).toEqual(bodyA.listing);
    const product = (await (
      await h.api(`/products/${first!.id}.json`, { token: DEMO_LIVE_TOKEN })
    ).json()) as {
      product: Record<string, unknown>;
    };
    expect(product.product).toMatchObject({
      id: first!.id,
      svc_unavailable_reason: expect.anything(),
    });
    expect(Array.isArray(product.product.variants)).toBe(true);
    const picked = (await (
      await h.api(`/listings/${first!.id}.json?fields=id,url`, { token: DEMO_LIVE_TOKEN })
    ).json()) as {
      listing: Record<string, unknown>;
    };
    expect(Object.keys(picked.listing)).toEqual(['id', 'url']);
  });

  it('shows a sold listing archived with reason sold and not reactivatable', async () => {
    const orders = await walk<z.infer<typeof order>>('/orders.json', 'orders');
    const sold = orders.find((o) => o.cancelled_at === null)!;
    const response = await h.api(`/listings/${sold.line_items[0]!.product_id}.json`, {
      token: DEMO_LIVE_TOKEN,
    });
    const { listing } = (await response.json()) as { listing: z.infer<typeof single> };
    expect(listing).toMatchObject({
      status: 'archived',
      unavailable_reason: 'sold',
      can_reactivate: false,
    });
  });

  it('has about 200 orders in every lifecycle stage and financial status, with the status filter', async () => {
    const orders = await walk<z.infer<typeof order>>('/orders.json', 'orders');
    expect(orders.length).toBeGreaterThanOrEqual(180);
    for (const o of orders) order.parse(o);
    expect(orders.every((o) => o.svc_buyer_delivery === undefined)).toBe(true);
    const financial = new Set<string>(orders.map((o) => o.financial_status));
    for (const s of ['paid', 'partially_refunded', 'refunded', 'voided'])
      expect(financial.has(s), s).toBe(true);
    const shipment = new Set(orders.map((o) => o.svc_seller_shipment.status));
    expect(shipment.has('pending_shipment') && shipment.has('delivered')).toBe(true);
    expect(orders.some((o) => o.svc_payout.status === 'paid' && o.svc_payout.amount !== null)).toBe(
      true,
    );
    expect(orders.some((o) => o.fulfillment_status === 'fulfilled')).toBe(true);

    const open = await walk<z.infer<typeof order>>('/orders.json?status=open', 'orders');
    const closed = await walk<z.infer<typeof order>>('/orders.json?status=closed', 'orders');
    const cancelled = await walk<z.infer<typeof order>>('/orders.json?status=cancelled', 'orders');
    const any = await walk<z.infer<typeof order>>('/orders.json?status=any', 'orders');
    expect(open.length + closed.length + cancelled.length).toBe(orders.length);
    expect(any.length).toBe(orders.length);
    expect(open.length > 0 && closed.length > 0 && cancelled.length > 0).toBe(true);
    expect(open.every((o) => o.cancelled_at === null && o.closed_at === null)).toBe(true);
    expect(cancelled.every((o) => o.cancelled_at !== null)).toBe(true);
    expect(
      closed.every((o) => o.cancelled_at === null && o.svc_seller_shipment.status === 'delivered'),
    ).toBe(true);
  });

  it('finds an order by id or by its code, with the single view additions', async () => {
    const [first] = await walk<z.infer<typeof order>>('/orders.json?status=closed', 'orders');
    for (const key of [first!.id, first!.name, `${first!.name}.json`]) {
      const response = await h.api(`/orders/${key}${key.endsWith('.json') ? '' : '.json'}`, {
        token: DEMO_LIVE_TOKEN,
      });
      expect(response.status, key).toBe(200);
      const body = (await response.json()) as { order: z.infer<typeof order> };
      order.parse(body.order);
      expect(body.order.id).toBe(first!.id);
      expect(body.order.svc_buyer_delivery).toBeDefined();
      expect(body.order.line_items[0]!.fulfillment_status).toBeDefined();
      expect(body.order.svc_order_code).toBe(body.order.name);
    }
  });

  it('lists every card as an inventory item, listed or not, with its level', async () => {
    const items = await walk<z.infer<typeof inventoryItem>>(
      '/inventory_items.json',
      'inventory_items',
    );
    const levels = await walk<z.infer<typeof level>>('/inventory_levels.json', 'inventory_levels');
    for (const i of items) inventoryItem.parse(i);
    for (const l of levels) level.parse(l);
    expect(levels.map((l) => l.inventory_item_id)).toEqual(items.map((i) => i.id));
    const reasons = new Set(levels.map((l) => l.svc_unavailable_reason));
    for (const r of [
      'listed',
      'not_listed',
      'sold',
      'shipped',
      'expired',
      'deactivated_by_seller',
      'flagged',
      'pulled_into_pack',
    ]) {
      expect(reasons.has(r), r).toBe(true);
    }
    expect(
      levels.filter((l) => l.available === 1).every((l) => l.svc_unavailable_reason === 'listed'),
    ).toBe(true);
    expect(levels.find((l) => l.svc_unavailable_reason === 'sold')!.svc_can_reactivate).toBe(false);
    expect(levels.find((l) => l.svc_unavailable_reason === 'not_listed')!.svc_can_reactivate).toBe(
      true,
    );
    expect(levels.find((l) => l.svc_unavailable_reason === 'shipped')!.location_id).toBe(
      'loc_vault',
    );
    expect(levels.find((l) => l.svc_unavailable_reason === 'listed')!.location_id).toBe(
      `loc_seller_${DEMO_SELLER_ID}`,
    );
  });

  it('computes exactly two locations from the caller', async () => {
    const response = await h.api('/locations.json', { token: DEMO_LIVE_TOKEN });
    const { locations } = (await response.json()) as { locations: Record<string, unknown>[] };
    expect(locations).toHaveLength(2);
    expect(locations[0]).toMatchObject({
      id: `loc_seller_${DEMO_SELLER_ID}`,
      svc_location_type: 'seller',
      svc_writable: false,
      svc_seller_controlled: true,
    });
    expect(locations[1]).toMatchObject({
      id: 'loc_vault',
      svc_location_type: 'vault',
      country_code: 'US',
      svc_writable: false,
    });
    expect(response.headers.get('link')).toBeNull();
  });

  it('has test-flagged records that only the test key sees', async () => {
    const live = await walk<{ id: string }>('/listings.json?fields=id', 'listings');
    const test = await walk<{ id: string }>(
      '/listings.json?fields=id',
      'listings',
      DEMO_TEST_TOKEN,
    );
    expect(test.length).toBeGreaterThan(10);
    const liveIds = new Set(live.map((l) => l.id));
    expect(test.some((t) => liveIds.has(t.id))).toBe(false);
    const testOrders = await walk<z.infer<typeof order>>('/orders.json', 'orders', DEMO_TEST_TOKEN);
    expect(testOrders.length).toBeGreaterThan(0);
    expect(testOrders.every((o) => o.test)).toBe(true);
  });
});

describe('the default shapes: the listing views carry the sale terms as extras', () => {
  /** A fresh seller's listing as the list view (found by walking) and the single view show it. */
  async function bothViews(token: string, id: string) {
    const rows = await walk<z.infer<typeof listItem>>('/listings.json', 'listings', token);
    const row = rows.find((l) => l.id === id)!;
    const one = await call(h, 'GET', `/listings/${id}.json`, token);
    expect(one.status).toBe(200);
    return { row: listItem.parse(row), one: single.parse(one.body.listing) };
  }

  it('reads back every sale term of a create, in both views, consistently', async () => {
    const seller = await h.seller();
    const cert = await registerCert(h, 'PSA', undefined, { player: 'Charizard' });
    const created = await createListing(h, seller.token, {
      sku: cert,
      price: 100,
      description: 'Sharp corners, centred.',
      minimum_offer: 20,
      accepts_trades: true,
      auto_relist: true,
      promoted: true,
      duration_hours: 168,
      images: [{ src: 'https://photos.example.com/front.jpg' }],
    });
    expect(created.status).toBe(201);
    const id = created.body.listing.id as string;
    const { row, one } = await bothViews(seller.token, id);
    const expected = {
      id,
      status: 'active',
      price: '100.00',
      description: 'Sharp corners, centred.',
      minimum_offer: '20.00',
      accepts_offers: true,
      accepts_trades: true,
      auto_relist: true,
      promoted: true,
      duration_hours: 168,
      scheduled_go_live_at: null,
      unavailable_reason: null,
      can_reactivate: false,
      url: created.body.listing.url,
      card: { cert_number: cert, grader: 'PSA', player: 'Charizard', variant: 'Base' },
    };
    expect(row).toMatchObject(expected);
    expect(one).toMatchObject(expected);
    expect(Date.parse(row.window_ends_at!) - Date.parse(row.listed_at!)).toBe(168 * 3_600_000);
    // The list row is the single view without its images and the card's page.
    const { images, card: singleCard, ...rest } = one;
    const { url: cardUrl, ...cardRest } = singleCard;
    expect(row).toEqual({ ...rest, card: cardRest });
    expect(cardUrl).toMatch(new RegExp(`/market/cards/${one.card.id}$`));
    const product = await getProduct(h, seller.token, id);
    expect(images).toEqual(product.images);
    expect(images).toEqual([{ id: expect.any(String), position: 1, src: expect.any(String) }]);
  });

  it('shows the defaults, a card without a player and a scheduled listing', async () => {
    const seller = await h.seller();
    const at = new Date(Date.parse((await h.control<{ now: string }>('GET', '/clock')).body.now));
    at.setUTCHours(at.getUTCHours() + 5, 0, 0, 0);
    const plain = await createListing(h, seller.token, {
      // A cert registered without a player (undefined is left out of the JSON).
      sku: await registerCert(h, 'BGS', undefined, { player: undefined }),
      price: '45.50',
    });
    const scheduled = await createListing(h, seller.token, {
      sku: await registerCert(h, 'PSA'),
      price: 30,
      scheduled_go_live_at: at.toISOString(),
    });
    expect([plain.status, scheduled.status]).toEqual([201, 201]);
    const a = await bothViews(seller.token, plain.body.listing.id as string);
    for (const view of [a.row, a.one]) {
      expect(view).toMatchObject({
        description: '',
        minimum_offer: null,
        accepts_trades: false,
        auto_relist: false,
        promoted: false,
        duration_hours: 720,
        scheduled_go_live_at: null,
        card: { player: null, variant: 'Base' },
      });
      expect(view.window_ends_at).not.toBeNull();
    }
    expect(a.one.images).toEqual([]);
    const b = await bothViews(seller.token, scheduled.body.listing.id as string);
    for (const view of [b.row, b.one]) {
      expect(view).toMatchObject({
        status: 'draft',
        unavailable_reason: 'scheduled',
        can_reactivate: true,
        scheduled_go_live_at: at.toISOString(),
      });
    }
  });

  it('gives a sold row reason sold, not reactivatable, and a deleted one deactivated_by_seller', async () => {
    const seller = await h.seller();
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await createListing(h, seller.token, {
        sku: await registerCert(h, 'PSA'),
        price: 50,
      });
      expect(res.status).toBe(201);
      ids.push(res.body.listing.id as string);
    }
    const [soldId, deletedId] = ids as [string, string];
    expect((await h.control('POST', `/listings/${soldId}/sell`, {})).status).toBe(200);
    expect((await deleteListing(h, seller.token, deletedId)).status).toBe(200);
    const sold = await bothViews(seller.token, soldId);
    const deleted = await bothViews(seller.token, deletedId);
    for (const view of [sold.row, sold.one]) {
      expect(view).toMatchObject({
        status: 'archived',
        unavailable_reason: 'sold',
        can_reactivate: false,
      });
    }
    for (const view of [deleted.row, deleted.one]) {
      expect(view).toMatchObject({
        status: 'archived',
        unavailable_reason: 'deactivated_by_seller',
        can_reactivate: true,
      });
    }
  });

  it('keeps fields= working on the extras', async () => {
    const seller = await h.seller();
    const res = await createListing(h, seller.token, {
      sku: await registerCert(h, 'PSA'),
      price: 80,
      minimum_offer: '60.25',
    });
    const id = res.body.listing.id as string;
    const page = await call(
      h,
      'GET',
      '/listings.json?fields=id,minimum_offer,card,can_reactivate',
      seller.token,
    );
    expect(page.body.listings).toHaveLength(1);
    expect(Object.keys(page.body.listings[0]).sort()).toEqual([
      'can_reactivate',
      'card',
      'id',
      'minimum_offer',
    ]);
    expect(page.body.listings[0]).toMatchObject({ id, minimum_offer: '60.25' });
    const one = await call(h, 'GET', `/listings/${id}?fields=images,auto_relist`, seller.token);
    expect(one.body.listing).toEqual({ images: [], auto_relist: false });
  });
});

describe('degraded records', () => {
  it('reduces a record named by the fault switch to its id and svc_serialization_error, inside a 200', async () => {
    const rows = await walk<{ id: string }>('/listings.json?fields=id', 'listings');
    const target = rows[3]!.id;
    const orders = await walk<{ id: string }>('/orders.json?fields=id', 'orders');
    await h.control('PUT', '/faults', { degraded_ids: [target, orders[0]!.id] });
    try {
      const page = await h.api('/listings.json?limit=10', { token: DEMO_LIVE_TOKEN });
      expect(page.status).toBe(200);
      const { listings } = (await page.json()) as { listings: Record<string, unknown>[] };
      expect(listings[3]).toEqual({
        id: target,
        svc_serialization_error: { code: 'serialization_failed', message: expect.any(String) },
      });
      expect(listings.filter((l) => 'svc_serialization_error' in l)).toHaveLength(1);
      for (const l of listings.filter((l) => !('svc_serialization_error' in l))) listItem.parse(l);
      const alone = await h.api(`/listings/${target}.json`, { token: DEMO_LIVE_TOKEN });
      expect(alone.status).toBe(200);
      expect(((await alone.json()) as { listing: Record<string, unknown> }).listing).toHaveProperty(
        'svc_serialization_error',
      );
      const orderPage = await h.api('/orders.json?limit=2', { token: DEMO_LIVE_TOKEN });
      const { orders: reduced } = (await orderPage.json()) as { orders: Record<string, unknown>[] };
      expect(Object.keys(reduced[0]!)).toEqual(['id', 'svc_serialization_error']);
    } finally {
      await h.control('PUT', '/faults', { degraded_ids: [] });
    }
  });
});
