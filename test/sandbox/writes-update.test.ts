import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startHarness, type Harness } from '../support/sandbox-harness';
import {
  call,
  createListing,
  deleteListing,
  errorCode,
  getLevel,
  getProduct,
  registerCert,
  updateListing,
  type Json,
} from './writes-helpers';

const money = z.string().regex(/^\d+\.\d{2}$/);
const updateShape = z.strictObject({
  id: z.string(),
  title: z.string(),
  status: z.enum(['active', 'draft', 'archived']),
  price: money,
  minimum_offer: money.nullable(),
  accepts_offers: z.boolean(),
});
const deleteShape = z.strictObject({
  id: z.string(),
  title: z.string(),
  status: z.enum(['active', 'draft', 'archived']),
  unavailable_reason: z.string().nullable(),
  can_reactivate: z.boolean(),
  price: money,
});

let h: Harness;
let seller: { sellerId: string; token: string; keyId: string };
const HOUR = 3_600_000;

async function live(extra: Record<string, unknown> = {}, token = seller.token): Promise<Json> {
  const res = await createListing(h, token, {
    sku: await registerCert(h, 'PSA'),
    price: '100.00',
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.listing;
}

const clockNow = async () =>
  Date.parse((await h.control<{ now: string }>('GET', '/clock')).body.now);

beforeAll(async () => {
  h = await startHarness({ rateLimit: false });
  seller = await h.seller();
});
afterAll(() => h.close());

describe('PUT /listings/{id}.json', () => {
  it('changes only the given fields and answers the update shape', async () => {
    const listing = await live({ description: 'Keep me', minimum_offer: '80.00' });
    const res = await updateListing(h, seller.token, listing.id, { price: '120.00' });
    expect(res.status).toBe(200);
    expect(updateShape.parse(res.body.listing)).toEqual({
      id: listing.id,
      title: listing.title,
      status: 'active',
      price: '120.00',
      minimum_offer: '80.00',
      accepts_offers: true,
    });
    const product = await getProduct(h, seller.token, listing.id);
    expect(product).toMatchObject({ body_html: 'Keep me', svc_duration_hours: 720 });
    const titled = await updateListing(h, seller.token, listing.id, {
      title: 'New title',
      description: 'New words',
      accepts_trades: true,
      auto_relist: true,
    });
    expect(titled.body.listing).toMatchObject({ title: 'New title', price: '120.00' });
    expect(await getProduct(h, seller.token, listing.id)).toMatchObject({
      body_html: 'New words',
      svc_accepts_trades: true,
      svc_auto_relist: true,
    });
    const empty = await updateListing(h, seller.token, listing.id, {});
    expect(empty.body.listing).toEqual(titled.body.listing);
  });

  it('applies every minimum_offer rule', async () => {
    const listing = await live();
    const set = await updateListing(h, seller.token, listing.id, { minimum_offer: 90 });
    expect(set.body.listing.minimum_offer).toBe('90.00');
    const above = await updateListing(h, seller.token, listing.id, { minimum_offer: '100.01' });
    expect(above.status).toBe(422);
    expect(above.body.errors.minimum_offer).toHaveLength(1);
    // Only the floor was sent: only its field carries the message.
    expect(Object.keys(above.body.errors)).toEqual(['minimum_offer']);
    // Both sent and in conflict: each field carries its side, and nothing changes.
    const conflict = await updateListing(h, seller.token, listing.id, {
      price: 150,
      minimum_offer: 175,
    });
    expect(conflict.status).toBe(422);
    expect(conflict.body.errors).toEqual({
      minimum_offer: ['must be at most the price'],
      price: ['must be at least the minimum offer sent with it'],
    });
    // Checked against the new price when both are given.
    const both = await updateListing(h, seller.token, listing.id, {
      price: 200,
      minimum_offer: 150,
    });
    expect(both.body.listing).toMatchObject({ price: '200.00', minimum_offer: '150.00' });
    const still = await updateListing(h, seller.token, listing.id, { price: 160 });
    expect(still.body.listing.minimum_offer).toBe('150.00');
    const dropped = await updateListing(h, seller.token, listing.id, { price: 140 });
    expect(dropped.body.listing).toMatchObject({ price: '140.00', minimum_offer: null });
    await updateListing(h, seller.token, listing.id, { minimum_offer: 100 });
    const cleared = await updateListing(h, seller.token, listing.id, { minimum_offer: null });
    expect(cleared.body.listing.minimum_offer).toBeNull();
    await updateListing(h, seller.token, listing.id, { minimum_offer: 100 });
    const off = await updateListing(h, seller.token, listing.id, { accepts_offers: false });
    expect(off.body.listing).toMatchObject({ accepts_offers: false, minimum_offer: null });
    const ignored = await updateListing(h, seller.token, listing.id, { minimum_offer: 50 });
    expect(ignored.body.listing).toMatchObject({ accepts_offers: false, minimum_offer: null });
  });

  it('makes promoted one-way', async () => {
    const listing = await live();
    await updateListing(h, seller.token, listing.id, { promoted: true });
    const res = await updateListing(h, seller.token, listing.id, { promoted: false });
    expect(res.status).toBe(200);
    expect((await getProduct(h, seller.token, listing.id)).svc_promoted).toBe(true);
  });

  it('drafts and reactivates with a fresh window sized by duration_hours', async () => {
    const listing = await live();
    const drafted = await updateListing(h, seller.token, listing.id, { status: 'draft' });
    expect(drafted.body.listing.status).toBe('draft');
    const single = await call(h, 'GET', `/listings/${listing.id}.json`, seller.token);
    expect(single.body.listing).toMatchObject({
      status: 'draft',
      unavailable_reason: 'draft',
      can_reactivate: true,
    });
    await h.control('POST', '/clock', { advance_seconds: 3600 });
    const before = await clockNow();
    const back = await updateListing(h, seller.token, listing.id, {
      status: 'active',
      duration_hours: 336,
    });
    expect(back.body.listing.status).toBe('active');
    const product = await getProduct(h, seller.token, listing.id);
    const listedAt = Date.parse(product.svc_listed_at);
    expect(listedAt).toBeGreaterThanOrEqual(before);
    expect(Date.parse(product.svc_window_ends_at)).toBe(listedAt + 336 * HOUR);
    expect(product.svc_duration_hours).toBe(336);
    expect(await getLevel(h, seller.token, listing.card.id)).toMatchObject({ available: 1 });
  });

  it('extends the current window with duration_hours alone', async () => {
    const listing = await live({ duration_hours: 168 });
    const ends = Date.parse((await getProduct(h, seller.token, listing.id)).svc_window_ends_at);
    await updateListing(h, seller.token, listing.id, { duration_hours: 504 });
    const product = await getProduct(h, seller.token, listing.id);
    expect(Date.parse(product.svc_window_ends_at)).toBe(ends + 504 * HOUR);
  });

  it('reschedules or releases a listing not live yet, and rejects scheduled_go_live_at otherwise', async () => {
    const at = new Date((await clockNow()) + 48 * HOUR).toISOString();
    const scheduled = await live({ scheduled_go_live_at: at });
    const later = new Date((await clockNow()) + 72 * HOUR).toISOString();
    const moved = await updateListing(h, seller.token, scheduled.id, {
      scheduled_go_live_at: later,
    });
    expect(moved.body.listing.status).toBe('draft');
    expect((await getProduct(h, seller.token, scheduled.id)).svc_scheduled_go_live_at).toBe(later);
    const withStatus = await updateListing(h, seller.token, scheduled.id, {
      scheduled_go_live_at: null,
      status: 'active',
    });
    expect(withStatus.status).toBe(422);
    expect(withStatus.body.errors.scheduled_go_live_at).toHaveLength(1);
    const released = await updateListing(h, seller.token, scheduled.id, {
      scheduled_go_live_at: null,
    });
    expect(released.body.listing.status).toBe('active');
    const once = await updateListing(h, seller.token, scheduled.id, {
      scheduled_go_live_at: later,
    });
    expect(once.status).toBe(422);
    expect(once.body.errors.scheduled_go_live_at[0]).toMatch(/not been live/);
  });

  it('answers 409 listing_write_conflict on a sold listing, for PUT and DELETE', async () => {
    const listing = await live();
    await h.control('POST', `/listings/${listing.id}/sell`, {});
    for (const body of [{ price: 200 }, {}, { status: 'active' }]) {
      const res = await updateListing(h, seller.token, listing.id, body);
      expect(res.status).toBe(409);
      expect(errorCode(res)).toBe('listing_write_conflict');
    }
    const del = await deleteListing(h, seller.token, listing.id);
    expect(del.status).toBe(409);
    expect(errorCode(del)).toBe('listing_write_conflict');
  });

  it('answers 404 for a missing listing or another seller’s', async () => {
    const other = await h.seller();
    const theirs = await live({}, other.token);
    for (const id of ['lst_nothing', theirs.id as string]) {
      const res = await updateListing(h, seller.token, id, { price: 20 });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ errors: 'Not Found', svc_error: { code: 'not_found' } });
      expect((await deleteListing(h, seller.token, id)).status).toBe(404);
    }
  });

  it('checks the reactivation rules: review, holds, another listing of the card, cap', async () => {
    const review = await createListing(h, seller.token, {
      sku: await registerCert(h, 'SGC'),
      price: 50,
    });
    const approve = await updateListing(h, seller.token, review.body.listing.id, {
      status: 'active',
    });
    expect(approve.status).toBe(422);
    expect(approve.body.svc_error).toMatchObject({
      code: 'card_not_listable',
      reason: 'pending_review',
    });

    const first = await live();
    await deleteListing(h, seller.token, first.id);
    const second = await createListing(h, seller.token, {
      inventory_item_id: first.card.id,
      price: 90,
    });
    expect(second.status).toBe(201);
    const clash = await updateListing(h, seller.token, first.id, { status: 'active' });
    expect(clash.status).toBe(409);
    expect(errorCode(clash)).toBe('listing_write_conflict');

    const capped = await h.seller({ seller: { listing_cap: 1 } });
    const a = await live({}, capped.token);
    await updateListing(h, capped.token, a.id, { status: 'draft' });
    await live({}, capped.token);
    const over = await updateListing(h, capped.token, a.id, { status: 'active' });
    expect(over.status).toBe(403);
    expect(over.body.errors).toMatch(/^listing_cap: /);
  });

  it('rejects fields an update does not take and bad values, keyed by field', async () => {
    const listing = await live();
    const res = await updateListing(h, seller.token, listing.id, {
      sku: '123',
      status: 'archived',
      price: 5,
      title: '',
      duration_hours: 1,
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual([
      'duration_hours',
      'price',
      'sku',
      'status',
      'title',
    ]);
    expect(res.body.errors.sku).toEqual(['cannot be changed by an update']);
  });

  it('is served on /products/{id} with the alias body and product answer', async () => {
    const listing = await live();
    const res = await call(h, 'PUT', `/products/${listing.id}`, seller.token, {
      product: { body_html: 'Alias edit', variants: [{ price: '150.00' }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.product).toMatchObject({
      id: listing.id,
      body_html: 'Alias edit',
      variants: [expect.objectContaining({ price: '150.00' })],
    });
  });

  it('needs write approval on a live key', async () => {
    const approved = await h.seller();
    const listing = await live({}, approved.token);
    await h.control('PATCH', `/sellers/${approved.sellerId}`, { write_approved: false });
    const res = await updateListing(h, approved.token, listing.id, { price: 20 });
    expect(res.status).toBe(403);
    expect(errorCode(res)).toBe('listing_write_forbidden');
    expect((await deleteListing(h, approved.token, listing.id)).status).toBe(403);
  });
});

describe('DELETE /listings/{id}.json', () => {
  it('soft-deactivates, idempotently, answering the delete shape', async () => {
    const listing = await live();
    const res = await deleteListing(h, seller.token, listing.id);
    expect(res.status).toBe(200);
    expect(deleteShape.parse(res.body.listing)).toEqual({
      id: listing.id,
      title: listing.title,
      status: 'archived',
      unavailable_reason: 'deactivated_by_seller',
      can_reactivate: true,
      price: '100.00',
    });
    const again = await deleteListing(h, seller.token, listing.id);
    expect(again.status).toBe(200);
    expect(again.body.listing).toEqual(res.body.listing);
    expect(await getLevel(h, seller.token, listing.card.id)).toMatchObject({
      available: 0,
      svc_unavailable_reason: 'deactivated_by_seller',
      svc_can_reactivate: true,
    });
    const single = await call(h, 'GET', `/listings/${listing.id}`, seller.token);
    expect(single.body.listing.status).toBe('archived');
  });

  it('withdraws a pending-approval listing, and answers a product on the alias', async () => {
    const review = await createListing(h, seller.token, {
      sku: await registerCert(h, 'CGC'),
      price: 50,
    });
    const res = await call(h, 'DELETE', `/products/${review.body.listing.id}.json`, seller.token);
    expect(res.status).toBe(200);
    expect(res.body.product).toMatchObject({
      status: 'archived',
      svc_unavailable_reason: 'deactivated_by_seller',
      svc_can_reactivate: true,
    });
    // Reactivating it sends it back to review: it never skips the review it was waiting for.
    const back = await updateListing(h, seller.token, review.body.listing.id, { status: 'active' });
    expect(back.body.listing.status).toBe('draft');
    const single = await call(h, 'GET', `/listings/${review.body.listing.id}`, seller.token);
    expect(single.body.listing.unavailable_reason).toBe('pending_review');
  });
});
