import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startHarness, VIA_PRISM, type Harness } from '../support/sandbox-harness';
import {
  call,
  createListing,
  errorCode,
  freshCert,
  getLevel,
  getProduct,
  registerCert,
  type Json,
} from './writes-helpers';

const createShape = z.strictObject({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  status: z.enum(['active', 'draft', 'archived']),
  price: z.string().regex(/^\d+\.\d{2}$/),
  card: z.strictObject({ id: z.string(), cert_number: z.string(), grader: z.string() }),
  url: z.url(),
});

let h: Harness;
let seller: { sellerId: string; token: string; keyId: string };

/** How many listings and cards the seller has: "nothing created" is checked with these. */
async function counts(token = seller.token) {
  const listings = await call(h, 'GET', '/listings.json?limit=250', token);
  const items = await call(h, 'GET', '/inventory_items.json?limit=250', token);
  return {
    listings: (listings.body.listings as Json[]).length,
    items: (items.body.inventory_items as Json[]).length,
  };
}

beforeAll(async () => {
  h = await startHarness({ rateLimit: false });
  seller = await h.seller();
});
afterAll(() => h.close());

describe('POST /listings.json by sku', () => {
  it('creates a live listing from PSA data with every default, in the spec shape', async () => {
    const cert = await registerCert(h, 'PSA');
    const res = await createListing(h, seller.token, { sku: cert, price: '125.50' });
    expect(res.status).toBe(201);
    for (const header of [
      'x-service-api-call-limit',
      'x-service-api-version',
      'x-service-api-mode',
      'x-request-id',
    ]) {
      expect(res.headers.get(header)).toBeTruthy();
    }
    const listing = createShape.parse(res.body.listing);
    expect(listing).toMatchObject({
      status: 'active',
      price: '125.50',
      description: '',
      title: `1999 Pokemon Base Charizard #4 PSA ${cert}`,
      card: { cert_number: cert, grader: 'PSA' },
    });
    const product = await getProduct(h, seller.token, listing.id);
    expect(product).toMatchObject({
      svc_duration_hours: 720,
      svc_accepts_offers: true,
      svc_accepts_trades: false,
      svc_auto_relist: false,
      svc_promoted: false,
      svc_minimum_offer: null,
      svc_unavailable_reason: null,
    });
    const listed = Date.parse(product.svc_listed_at);
    expect(Date.parse(product.svc_window_ends_at) - listed).toBe(720 * 3_600_000);
    const single = await call(h, 'GET', `/listings/${listing.id}.json`, seller.token);
    expect(single.body.listing).toMatchObject({ status: 'active', unavailable_reason: null });
    expect(await getLevel(h, seller.token, listing.card.id)).toMatchObject({
      available: 1,
      svc_unavailable_reason: 'listed',
    });
  });

  it('BGS goes live at once; SGC and CGC are created pending review', async () => {
    const bgs = await createListing(h, seller.token, {
      sku: await registerCert(h, 'BGS'),
      price: 40,
    });
    expect(bgs.body.listing.status).toBe('active');
    for (const grader of ['SGC', 'CGC'] as const) {
      const res = await createListing(h, seller.token, {
        sku: await registerCert(h, grader),
        price: '40.00',
      });
      expect(res.status).toBe(201);
      expect(res.body.listing.status).toBe('draft');
      const single = await call(h, 'GET', `/listings/${res.body.listing.id}`, seller.token);
      expect(single.body.listing).toMatchObject({
        status: 'draft',
        unavailable_reason: 'pending_review',
        can_reactivate: false,
      });
    }
  });

  it('tries PSA, BGS, SGC, CGC in that order, or only the grader given', async () => {
    const cert = freshCert();
    await registerCert(h, 'CGC', cert);
    await registerCert(h, 'BGS', cert);
    const first = await createListing(h, seller.token, { sku: cert, price: 20, grader: 'CGC' });
    expect(first.body.listing.card.grader).toBe('CGC');
    const other = await h.seller();
    const auto = await createListing(h, other.token, { sku: cert, price: 20 });
    expect(auto.body.listing.card.grader).toBe('BGS');
  });

  it('answers cert_not_found when no grader knows the cert, and creates nothing', async () => {
    const before = await counts();
    const cert = freshCert();
    const res = await createListing(h, seller.token, { sku: cert, price: 20 });
    expect(res.status).toBe(422);
    expect(errorCode(res)).toBe('cert_not_found');
    expect(res.body.errors).toContain('PSA, BGS, SGC, CGC');
    const one = await createListing(h, seller.token, { sku: cert, price: 20, grader: 'SGC' });
    expect(errorCode(one)).toBe('cert_not_found');
    expect(one.body.errors).toContain('tried SGC)');
    expect(await counts()).toEqual(before);
  });

  it('uses the fallback card only when the lookup cannot resolve, pending review', async () => {
    const cert = freshCert();
    const res = await createListing(h, seller.token, {
      sku: cert,
      price: '75.00',
      grader: 'PSA',
      images: [{ src: 'https://photos.example.com/slab-front.jpg' }],
      card: { title: 'Rookie Card Fallback', player: 'A. Player', year: 2001 },
    });
    expect(res.status).toBe(201);
    expect(res.body.listing).toMatchObject({ status: 'draft', title: 'Rookie Card Fallback' });
    const product = await getProduct(h, seller.token, res.body.listing.id);
    expect(product.svc_unavailable_reason).toBe('pending_review');
    expect(product.svc_card).toMatchObject({
      title: 'Rookie Card Fallback',
      player: 'A. Player',
      year: 2001,
      set: 'Unknown',
      variant: 'Base',
    });
    expect(product.images).toEqual([
      expect.objectContaining({ src: 'https://photos.example.com/slab-front.jpg', position: 1 }),
    ]);

    // With a resolvable cert the card details are ignored and PSA data goes live.
    const known = await registerCert(h, 'PSA');
    const resolved = await createListing(h, seller.token, {
      sku: known,
      price: '75.00',
      grader: 'PSA',
      images: [{ src: 'https://photos.example.com/a.png' }],
      card: { title: 'Ignored details' },
    });
    expect(resolved.body.listing).toMatchObject({
      status: 'active',
      title: `1999 Pokemon Base Charizard #4 PSA ${known}`,
    });
  });

  it('lists the seller’s own card again instead of creating a second one for the same cert', async () => {
    const cert = freshCert();
    const body = {
      sku: cert,
      price: 20,
      grader: 'CGC',
      images: [{ src: 'https://photos.example.com/front.heic' }],
      card: { title: 'Fallback twice' },
    };
    const first = await createListing(h, seller.token, body);
    expect(first.status).toBe(201);
    const again = await createListing(h, seller.token, body);
    expect(again.status).toBe(409);
    expect(errorCode(again)).toBe('listing_write_conflict');
    await call(h, 'DELETE', `/listings/${first.body.listing.id}.json`, seller.token);
    const relisted = await createListing(h, seller.token, body);
    expect(relisted.status).toBe(201);
    expect(relisted.body.listing.card.id).toBe(first.body.listing.card.id);
  });

  it('answers cert_lookup_unavailable with Retry-After when the lookup is down, unless a card is given', async () => {
    const cert = await registerCert(h, 'PSA');
    await h.control('PUT', '/faults', { cert_lookup: 'unavailable' });
    try {
      const before = await counts();
      const res = await createListing(h, seller.token, { sku: cert, price: 20 });
      expect(res.status).toBe(503);
      expect(errorCode(res)).toBe('cert_lookup_unavailable');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await counts()).toEqual(before);
      const fallback = await createListing(h, seller.token, {
        sku: cert,
        price: 20,
        grader: 'PSA',
        images: [{ src: 'https://photos.example.com/x.webp' }],
        card: { title: 'Lookup down, details given' },
      });
      expect(fallback.status).toBe(201);
      expect(fallback.body.listing.status).toBe('draft');
    } finally {
      await h.control('PUT', '/faults', { cert_lookup: 'ok' });
    }
  });

  it('creates a scheduled listing as draft with reason scheduled, live at that instant', async () => {
    const at = new Date(Date.parse((await h.control<{ now: string }>('GET', '/clock')).body.now));
    at.setUTCHours(at.getUTCHours() + 2, 0, 0, 0);
    const res = await createListing(h, seller.token, {
      sku: await registerCert(h, 'PSA'),
      price: 30,
      duration_hours: 168,
      scheduled_go_live_at: at.toISOString(),
    });
    expect(res.status).toBe(201);
    const id = res.body.listing.id as string;
    const single = await call(h, 'GET', `/listings/${id}.json`, seller.token);
    expect(single.body.listing).toMatchObject({
      status: 'draft',
      unavailable_reason: 'scheduled',
    });
    await h.control('POST', '/clock', { advance_seconds: 3 * 3600 });
    const product = await getProduct(h, seller.token, id);
    expect(product.status).toBe('active');
    expect(product.svc_listed_at).toBe(at.toISOString());
    expect(Date.parse(product.svc_window_ends_at)).toBe(at.getTime() + 168 * 3_600_000);
  });

  it('a schedule on a listing that goes to review is accepted: pending review, no go-live time kept', async () => {
    const res = await createListing(h, seller.token, {
      sku: await registerCert(h, 'SGC'),
      price: 30,
      scheduled_go_live_at: '2099-01-01T00:00:00.000Z',
    });
    expect(res.status).toBe(201);
    expect(res.body.listing.card.grader).toBe('SGC');
    const id = res.body.listing.id as string;
    const single = await call(h, 'GET', `/listings/${id}.json`, seller.token);
    expect(single.body.listing).toMatchObject({
      status: 'draft',
      unavailable_reason: 'pending_review',
      can_reactivate: false,
    });
    const product = await getProduct(h, seller.token, id);
    expect(product.svc_scheduled_go_live_at).toBeNull();
  });
});

describe('POST /listings.json by inventory_item_id', () => {
  it('lists an existing card live, whatever its grader', async () => {
    const item = await h.control<Json>('POST', '/inventory_items', {
      seller_id: seller.sellerId,
      cert_number: freshCert(),
      grader: 'SGC',
      title: 'Inventory SGC card',
    });
    const res = await createListing(h, seller.token, {
      inventory_item_id: item.body.inventory_item.id,
      price: '99.99',
      images: [{ src: 'https://photos.example.com/ignored.jpg' }],
    });
    expect(res.status).toBe(201);
    expect(res.body.listing).toMatchObject({
      status: 'active',
      title: 'Inventory SGC card',
      card: { id: item.body.inventory_item.id, grader: 'SGC' },
    });
  });

  it('rejects an unknown card or another seller’s card under inventory_item_id', async () => {
    const other = await h.seller();
    const theirs = await h.control<Json>('POST', '/inventory_items', {
      seller_id: other.sellerId,
      cert_number: freshCert(),
      grader: 'PSA',
    });
    for (const id of ['itm_missing', theirs.body.inventory_item.id as string]) {
      const res = await createListing(h, seller.token, { inventory_item_id: id, price: 20 });
      expect(res.status).toBe(422);
      expect(errorCode(res)).toBe('validation_error');
      expect(res.body.errors.inventory_item_id).toHaveLength(1);
    }
  });

  it('answers card_not_listable with the hold as reason', async () => {
    for (const hold of ['in_trade', 'awaiting_review', 'flagged', 'pulled_into_pack']) {
      const item = await h.control<Json>('POST', '/inventory_items', {
        seller_id: seller.sellerId,
        cert_number: freshCert(),
        grader: 'PSA',
        hold,
      });
      const res = await createListing(h, seller.token, {
        inventory_item_id: item.body.inventory_item.id,
        price: 20,
      });
      expect(res.status).toBe(422);
      expect(res.body.svc_error).toMatchObject({ code: 'card_not_listable', reason: hold });
    }
  });
});

describe('conflicts and refusals', () => {
  it('answers listing_write_conflict for a card already actively listed', async () => {
    const cert = await registerCert(h, 'PSA');
    const first = await createListing(h, seller.token, { sku: cert, price: 20 });
    expect(first.status).toBe(201);
    const before = await counts();
    const again = await createListing(h, seller.token, { sku: cert, price: 25 });
    expect(again.status).toBe(409);
    expect(errorCode(again)).toBe('listing_write_conflict');
    const byItem = await createListing(h, seller.token, {
      inventory_item_id: first.body.listing.card.id,
      price: 25,
    });
    expect(errorCode(byItem)).toBe('listing_write_conflict');
    expect(await counts()).toEqual(before);
  });

  it('answers card_not_listable sold / shipped for a sold card, and relists a deactivated one', async () => {
    const cert = await registerCert(h, 'PSA');
    const first = await createListing(h, seller.token, { sku: cert, price: 20 });
    const sold = await h.control<Json>('POST', `/listings/${first.body.listing.id}/sell`, {});
    expect(sold.status).toBe(200);
    const res = await createListing(h, seller.token, { sku: cert, price: 20 });
    expect(res.status).toBe(422);
    expect(res.body.svc_error).toMatchObject({ code: 'card_not_listable', reason: 'sold' });
    await h.control('POST', `/orders/${sold.body.order.id}/advance`, {});
    const shipped = await createListing(h, seller.token, { sku: cert, price: 20 });
    expect(shipped.body.svc_error).toMatchObject({ code: 'card_not_listable', reason: 'shipped' });

    const other = await registerCert(h, 'PSA');
    const live = await createListing(h, seller.token, { sku: other, price: 20 });
    await call(h, 'DELETE', `/listings/${live.body.listing.id}.json`, seller.token);
    const relisted = await createListing(h, seller.token, { sku: other, price: 22 });
    expect(relisted.status).toBe(201);
    expect(relisted.body.listing.card.id).toBe(live.body.listing.card.id);
  });

  it('answers listing_write_forbidden naming the rule: write approval, cap, blocklist', async () => {
    const unapproved = await h.seller({ seller: { write_approved: false } });
    const cert = await registerCert(h, 'PSA');
    const res = await createListing(h, unapproved.token, { sku: cert, price: 20 });
    expect(res.status).toBe(403);
    expect(errorCode(res)).toBe('listing_write_forbidden');
    expect(res.body.errors).toMatch(/^write_approval: /);
    // A test key on the sandbox deployment writes without approval; its records are test-flagged.
    const testKey = await h.control<Json>('POST', '/keys', {
      seller_id: unapproved.sellerId,
      mode: 'test',
      scopes: ['write_listings'],
    });
    const testToken = testKey.body.key.token as string;
    const asTest = await createListing(h, testToken, { sku: cert, price: 20 });
    expect(asTest.status).toBe(201);
    expect(asTest.headers.get('x-service-api-mode')).toBe('test');
    const liveView = await call(
      h,
      'GET',
      `/listings/${asTest.body.listing.id}.json`,
      unapproved.token,
    );
    expect(liveView.status).toBe(404);

    const capped = await h.seller({ seller: { listing_cap: 1 } });
    expect(
      (await createListing(h, capped.token, { sku: await registerCert(h, 'PSA'), price: 20 }))
        .status,
    ).toBe(201);
    const over = await createListing(h, capped.token, {
      sku: await registerCert(h, 'PSA'),
      price: 20,
    });
    expect(over.status).toBe(403);
    expect(errorCode(over)).toBe('listing_write_forbidden');
    expect(over.body.errors).toMatch(/listing_cap/);

    const fake = await registerCert(h, 'PSA');
    await h.control('PUT', '/faults', { blocklisted_certs: [fake] });
    try {
      const blocked = await createListing(h, seller.token, { sku: fake, price: 20 });
      expect(blocked.status).toBe(403);
      expect(blocked.body.errors).toMatch(/counterfeit_blocklist/);
    } finally {
      await h.control('PUT', '/faults', { blocklisted_certs: [] });
    }
  });

  it('needs the write_listings scope', async () => {
    const reader = await h.seller({ scopes: ['read_listings'] });
    const res = await createListing(h, reader.token, { sku: freshCert(), price: 20 });
    expect(res.status).toBe(403);
    expect(errorCode(res)).toBe('insufficient_scope');
  });
});

describe('input rules', () => {
  it('reports every broken rule at once, keyed by field, as arrays of messages', async () => {
    const before = await counts();
    const res = await createListing(h, seller.token, {
      price: '10.005',
      sku: freshCert(),
      inventory_item_id: 'itm_x',
      title: 'x'.repeat(181),
      description: 'y'.repeat(1001),
      duration_hours: 100,
      accepts_offers: 'yes',
      grader: 'XYZ',
      scheduled_go_live_at: 'tomorrow',
      colour: 'red',
    });
    expect(res.status).toBe(422);
    expect(errorCode(res)).toBe('validation_error');
    for (const field of [
      'price',
      'inventory_item_id',
      'title',
      'description',
      'duration_hours',
      'accepts_offers',
      'grader',
      'scheduled_go_live_at',
      'colour',
    ]) {
      expect(res.body.errors[field], field).toEqual([expect.any(String)]);
    }
    expect(await counts()).toEqual(before);
  });

  it.each([
    [{ sku: '1' }, 'price'],
    [{ sku: '1', price: 9.99 }, 'price'],
    [{ sku: '1', price: '1000000.01' }, 'price'],
    [{ sku: '1', price: 'ten' }, 'price'],
    [{ price: 20 }, 'sku'],
    [{ sku: '1', price: 20, title: '   ' }, 'title'],
    [{ sku: '1', price: 20, minimum_offer: '21.00' }, 'minimum_offer'],
    [{ inventory_item_id: 'itm_1', price: 20, card: { title: 'x' } }, 'card'],
    [{ sku: '1', price: 20, card: { title: 'x' } }, 'grader'],
    [{ sku: '1', price: 20, grader: 'PSA', card: { title: 'x' } }, 'images'],
    [{ sku: '1', price: 20, grader: 'PSA', card: { year: 1999 }, images: [] }, 'card.title'],
    [
      {
        sku: '1',
        price: 20,
        grader: 'PSA',
        card: { title: 'x', player: 'p'.repeat(121) },
        images: [{ src: 'https://a.example.com/a.jpg' }],
      },
      'card.player',
    ],
    [{ sku: '1', price: 20, images: [{ src: 'http://a.example.com/a.jpg' }] }, 'images'],
    [{ sku: '1', price: 20, images: [{ src: 'https://a.example.com/a.gif' }] }, 'images'],
    [{ sku: '1', price: 20, images: 'https://a.example.com/a.jpg' }, 'images'],
    [
      {
        sku: '1',
        price: 20,
        images: Array.from({ length: 6 }, (_, i) => ({ src: `https://a.example.com/${i}.jpg` })),
      },
      'images',
    ],
  ])('rejects %j under %s', async (listing, field) => {
    const res = await createListing(h, seller.token, listing);
    expect(res.status).toBe(422);
    expect(errorCode(res)).toBe('validation_error');
    expect(res.body.errors[field]).toEqual(expect.arrayContaining([expect.any(String)]));
  });

  it('names both fields when the minimum offer sent is above the price sent', async () => {
    const res = await createListing(h, seller.token, {
      sku: '1',
      price: 20,
      minimum_offer: '21.00',
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.minimum_offer).toEqual(['must be at most the price']);
    expect(res.body.errors.price).toEqual(['must be at least the minimum offer sent with it']);
  });

  it('fails the whole request on an unreachable image, creating nothing', async () => {
    const before = await counts();
    const res = await createListing(h, seller.token, {
      sku: await registerCert(h, 'PSA'),
      price: 20,
      images: [
        { src: 'https://photos.example.com/ok.jpg' },
        { src: 'https://cdn.unreachable.invalid/slab.jpeg' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.images[0]).toMatch(/image 2 .* could not be downloaded/);
    expect(await counts()).toEqual(before);
  });

  it('ignores minimum_offer when offers are off', async () => {
    const res = await createListing(h, seller.token, {
      sku: await registerCert(h, 'PSA'),
      price: 20,
      accepts_offers: false,
      minimum_offer: 500,
    });
    expect(res.status).toBe(201);
    const product = await getProduct(h, seller.token, res.body.listing.id);
    expect(product).toMatchObject({ svc_accepts_offers: false, svc_minimum_offer: null });
  });

  // About the wire itself (unparsable bytes): Prism refuses those with its own 400.
  it.skipIf(VIA_PRISM)('answers invalid_json and body_too_large', async () => {
    const bad = await call(h, 'POST', '/listings.json', seller.token, '{"listing": ');
    expect(bad.status).toBe(422);
    expect(errorCode(bad)).toBe('invalid_json');
    const big = await call(h, 'POST', '/listings.json', seller.token, {
      listing: { sku: '1', price: 20, description: 'z'.repeat(1_048_600) },
    });
    expect(big.status).toBe(413);
    expect(big.body.svc_error).toMatchObject({ code: 'body_too_large', max_bytes: 1_048_576 });
  });

  it('wants the listing envelope', async () => {
    const res = await call(h, 'POST', '/listings.json', seller.token, { sku: '1', price: 20 });
    expect(res.status).toBe(422);
    expect(res.body.errors.listing).toHaveLength(1);
  });
});

describe('the /products alias', () => {
  it('accepts the product envelope, variants[0], body_html and svc_ names, answering a product', async () => {
    const cert = await registerCert(h, 'PSA');
    const res = await call(h, 'POST', '/products.json', seller.token, {
      product: {
        title: 'Alias form',
        body_html: 'Sharp corners.',
        variants: [{ price: '55.00', sku: cert, svc_minimum_offer: '50.00' }],
        svc_accepts_trades: true,
        svc_duration_hours: 336,
      },
    });
    expect(res.status).toBe(201);
    const product = res.body.product;
    expect(product).toMatchObject({
      title: 'Alias form',
      body_html: 'Sharp corners.',
      status: 'active',
      svc_accepts_trades: true,
      svc_minimum_offer: '50.00',
      svc_duration_hours: 336,
      svc_unavailable_reason: null,
    });
    expect(product.variants[0]).toMatchObject({ price: '55.00', sku: cert });
    expect(product).toEqual(await getProduct(h, seller.token, product.id));
  });

  it('rejects a field given twice with different values, and more than one variant', async () => {
    const twice = await call(h, 'POST', '/products.json', seller.token, {
      product: { price: 20, variants: [{ price: 30, sku: '1' }] },
    });
    expect(twice.status).toBe(422);
    expect(twice.body.errors.price).toHaveLength(1);
    const two = await call(h, 'POST', '/products.json', seller.token, {
      product: { variants: [{ price: 30, sku: '1' }, { price: 40 }] },
    });
    expect(two.body.errors.variants).toHaveLength(1);
  });
});

describe('on a production deployment', () => {
  it('refuses test keys on every write endpoint before looking up the record', async () => {
    const prod = await startHarness({ deployment: 'production' });
    try {
      const tester = await prod.seller({ mode: 'test' });
      for (const [method, path] of [
        ['POST', '/listings.json'],
        ['PUT', '/listings/lst_missing.json'],
        ['DELETE', '/listings/lst_missing.json'],
        ['POST', '/products.json'],
      ] as const) {
        const res = await call(prod, method, path, tester.token, { listing: {} });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(errorCode(res)).toBe('test_mode_forbidden');
      }
    } finally {
      await prod.close();
    }
  });
});
