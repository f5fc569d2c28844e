import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LIVE_TOKEN, DEMO_SELLER_ID, DEMO_TEST_TOKEN } from '../../src/sandbox';
import {
  ApiError,
  createClient,
  InventoryItem,
  InventoryLevel,
  LineItem,
  ListingDetail,
  ListingListItem,
  Location,
  Order,
  Ping,
  Product,
  ProductCard,
  ProductVariant,
  type ResponseMeta,
} from '../../src/client';
import { startHarness, type Harness } from '../support/sandbox-harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: 'demo' });
});
afterAll(() => h.close());

describe('schemas and resources against the demo seed', () => {
  it('loads every collection with every record parsed and nothing set aside', async () => {
    const api = createClient({ baseUrl: h.url, apiKey: DEMO_LIVE_TOKEN });
    const listings = await api.listings.loadAll();
    const products = await api.products.loadAll();
    const orders = await api.orders.loadAll();
    const items = await api.inventoryItems.loadAll();
    const levels = await api.inventoryLevels.loadAll();
    for (const snapshot of [listings, products, orders, items, levels]) {
      expect(snapshot.setAside).toEqual([]);
      expect(snapshot.rows.length).toBeGreaterThan(100);
    }
    expect(listings.rows.length).toBe(products.rows.length);
    expect(new Set(products.rows.map((p) => p.id)).size).toBe(products.rows.length);
    // Every status and grader of the seed appears, and the product shape carries the card.
    expect(new Set(listings.rows.map((l) => l.status))).toEqual(
      new Set(['active', 'draft', 'archived']),
    );
    const sold = products.rows.find((p) => p.svc_unavailable_reason === 'sold');
    expect(sold?.status).toBe('archived');
    expect(sold?.svc_can_reactivate).toBe(false);
    const lot = products.rows.find((p) => p.svc_is_lot);
    expect(lot?.svc_inventory_item_ids?.length).toBe(lot?.svc_card_count);
    expect(levels.rows.every((l) => l.available === 0 || l.available === 1)).toBe(true);
    expect(orders.rows.every((o) => o.line_items?.length === 1)).toBe(true);
  });

  it('reads single resources: listing, product, order by id and by code, ping, locations', async () => {
    const api = createClient({ baseUrl: h.url, apiKey: DEMO_LIVE_TOKEN });
    const first = (await api.listings.pages({ limit: 3 }).next()).value!.rows[0]!;
    const listing = await api.listings.get(first.id);
    expect(listing.data.id).toBe(first.id);
    expect(listing.data.card?.url).toMatch(/^http/);
    const product = await api.products.get(first.id);
    expect(product.data.svc_card?.cert_number).toBe(first.card?.cert_number);
    const picked = await api.listings.get(first.id, { fields: ['id', 'price'] });
    expect(Object.keys(picked.data).sort()).toEqual(['id', 'price']);
    expect(picked.data.price).toBe(first.price);
    const pickedProduct = await api.products.get(first.id, { fields: ['id', 'svc_minimum_offer'] });
    expect(Object.keys(pickedProduct.data).sort()).toEqual(['id', 'svc_minimum_offer']);
    const order = (await api.orders.pages({ limit: 1 }).next()).value!.rows[0]!;
    const byCode = await api.orders.get(order.name!);
    expect(byCode.data.id).toBe(order.id);
    expect(byCode.data.svc_buyer_delivery).toBeDefined();
    const ping = await api.ping();
    expect(ping.data).toMatchObject({ ok: true, mode: 'live', seller_id: DEMO_SELLER_ID });
    const locations = await api.locations.list();
    expect(locations.data.map((l) => l.id).sort()).toEqual(
      [`loc_seller_${DEMO_SELLER_ID}`, 'loc_vault'].sort(),
    );
  });

  it('schemas name every field the sandbox serves (nothing dropped silently)', async () => {
    const raw = async (path: string, envelope: string) => {
      const response = await h.api(path, { token: DEMO_LIVE_TOKEN });
      const body = (await response.json()) as Record<string, unknown>;
      const value = body[envelope];
      return (Array.isArray(value) ? value : [value]) as Record<string, unknown>[];
    };
    const missing = (rows: Record<string, unknown>[], schema: { shape: object }) =>
      [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((k) => !(k in schema.shape));
    const products = await raw('/products.json?limit=50', 'products');
    expect(missing(products, Product)).toEqual([]);
    expect(
      missing(
        products.map((p) => p.svc_card as Record<string, unknown>),
        ProductCard,
      ),
    ).toEqual([]);
    expect(
      missing(
        products.flatMap((p) => p.variants as Record<string, unknown>[]),
        ProductVariant,
      ),
    ).toEqual([]);
    expect(missing(await raw('/listings.json?limit=50', 'listings'), ListingListItem)).toEqual([]);
    const listingId = products[0]!.id as string;
    expect(missing(await raw(`/listings/${listingId}.json`, 'listing'), ListingDetail)).toEqual([]);
    const orders = await raw('/orders.json?limit=50', 'orders');
    expect(missing(orders, Order)).toEqual([]);
    const order = await raw(`/orders/${orders[0]!.id as string}.json`, 'order');
    expect(missing(order, Order)).toEqual([]);
    expect(
      missing(
        order.flatMap((o) => o.line_items as Record<string, unknown>[]),
        LineItem,
      ),
    ).toEqual([]);
    expect(
      missing(await raw('/inventory_items.json?limit=50', 'inventory_items'), InventoryItem),
    ).toEqual([]);
    expect(
      missing(await raw('/inventory_levels.json?limit=50', 'inventory_levels'), InventoryLevel),
    ).toEqual([]);
    expect(missing(await raw('/locations.json', 'locations'), Location)).toEqual([]);
    expect(missing(await raw('/ping', 'ping'), Ping)).toEqual([]);
  });

  it('schemas tolerate unknown extra fields and reject a mistyped known one', () => {
    const row = {
      id: 'inv_1',
      sku: '123',
      cost: '1.00',
      tracked: true,
      requires_shipping: true,
      created_at: '2026-07-01T00:00:00.000Z',
      svc_cert_number: '123',
      svc_grader: 'PSA',
      svc_grade: '10',
      svc_player: '',
      svc_year: '',
      svc_card_set: 'Unknown',
      something_new: { nested: true },
    };
    expect(InventoryItem.safeParse(row).success).toBe(true);
    expect(InventoryItem.safeParse({ ...row, cost: 1 }).success).toBe(false);
    expect(ListingListItem.safeParse({}).success).toBe(false);
    expect(Product.safeParse({ id: 'x' }).success).toBe(false);
    expect(Order.safeParse(null).success).toBe(false);
  });
});

describe('response meta', () => {
  it('exposes call limit, mode, version and request id of every response, key only in a header', async () => {
    const seen: ResponseMeta[] = [];
    const api = createClient({
      baseUrl: h.url,
      apiKey: DEMO_TEST_TOKEN,
      onResponse: (meta) => seen.push(meta),
    });
    let notified = 0;
    const unsubscribe = api.transport.subscribe(() => notified++);
    await api.ping();
    await api.locations.list();
    unsubscribe();
    expect(seen).toHaveLength(2);
    for (const meta of seen) {
      expect(meta.callLimit?.capacity).toBe(20);
      expect(meta.callLimit?.used).toBeGreaterThanOrEqual(1);
      expect(meta.mode).toBe('test');
      expect(meta.version).toBe('2026-07');
      expect(meta.requestId).toMatch(/^req_/);
      expect(meta.url).not.toContain(DEMO_TEST_TOKEN);
    }
    const state = api.transport.getState();
    expect(state.last).toBe(seen[1]);
    expect(state.bucket).toMatchObject({ mode: 'test', capacity: 20, perSecond: 1 });
    expect(state.counts.requests).toBe(2);
    expect(notified).toBeGreaterThan(0);
    expect(api.transport.getState()).toBe(api.transport.getState());
  });

  it('follows a Link on the API origin as is, rebases one from behind a proxy, refuses others', () => {
    const api = createClient({ baseUrl: 'http://proxy.test/api' });
    const own = 'http://proxy.test/api/2026-07/listings.json?limit=250&page_info=abc.def';
    expect(api.transport.resolve(own)).toBe(own);
    expect(
      api.transport.resolve('http://127.0.0.1:4010/2026-07/listings.json?limit=250&page_info=x.y'),
    ).toBe('http://proxy.test/api/2026-07/listings.json?limit=250&page_info=x.y');
    expect(() => api.transport.resolve('http://evil.test/steal')).toThrow(ApiError);
  });

  it('defaults to the dev proxy path /api and builds URLs under the version', () => {
    const api = createClient();
    expect(api.transport.baseUrl).toBe('/api');
    const deployed = createClient({ baseUrl: 'https://example.test/' });
    expect(deployed.transport.resolve('/listings.json', { limit: 5 })).toBe(
      'https://example.test/2026-07/listings.json?limit=5',
    );
  });
});

describe('errors', () => {
  it('maps auth, not-found, scope and version failures to one ApiError with its code', async () => {
    const bad = createClient({ baseUrl: h.url, apiKey: 'svc_live_nope' });
    const unauthorized = await bad.ping().catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(ApiError);
    expect(unauthorized).toMatchObject({ status: 401, code: 'invalid_api_key' });
    expect((unauthorized as ApiError).requestId).toMatch(/^req_/);

    const api = createClient({ baseUrl: h.url, apiKey: DEMO_LIVE_TOKEN });
    await expect(api.listings.get('lst_missing')).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });

    const { token } = await h.seller({ scopes: ['read_orders'] });
    const narrow = createClient({ baseUrl: h.url, apiKey: token });
    await expect(narrow.listings.loadAll()).rejects.toMatchObject({
      status: 403,
      code: 'insufficient_scope',
    });

    const future = createClient({ baseUrl: h.url, apiKey: DEMO_LIVE_TOKEN, version: '2099-01' });
    const unknown = (await future.ping().catch((e: unknown) => e)) as ApiError;
    expect(unknown.code).toBe('unknown_api_version');
    expect(unknown.supportedVersions?.[0]?.version).toBe('2026-07');
  });

  it('turns a 422 into a map from field to messages', async () => {
    const api = createClient({ baseUrl: h.url, apiKey: DEMO_LIVE_TOKEN });
    const error = (await api.listings
      .loadAll({ limit: 999, updatedAtMin: 'yesterday' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(422);
    expect(error.code).toBe('validation_error');
    expect(Object.keys(error.fieldErrors).sort()).toEqual(['limit', 'updated_at_min']);
    expect(error.fieldErrors.limit?.[0]).toMatch(/1 to 250/);
    expect(error.hasFieldErrors).toBe(true);
  });

  it('carries changed_params of a filter mismatch', async () => {
    const api = createClient({ baseUrl: h.url, apiKey: DEMO_LIVE_TOKEN });
    const page = (await api.orders.pages({ limit: 5, status: 'any' }).next()).value!;
    const next = new URL(page.meta.links.next!);
    next.searchParams.set('status', 'open');
    const error = (await api.transport
      .request({ path: next.href })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.code).toBe('page_info_filter_mismatch');
    expect(error.changedParams).toEqual(['status']);
  });
});
