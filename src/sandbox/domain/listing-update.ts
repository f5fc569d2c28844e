import { notFound, validationError } from '../platform/api-error';
import type { ListingPatch } from '../store/listings-store';
import type { ListingWithCardRow } from '../store/rows';
import { VERIFIED } from './listing-create';
import type { IdSource } from './ids';
import { changeListing } from './listings';
import type { UpdateInput } from './listing-input';
import { OFFER_ABOVE_PRICE, PRICE_BELOW_OFFER } from '../../client/listing-rules';
import {
  assertCardListable,
  assertNotBlocklisted,
  assertUnderCap,
  conflict,
  notListable,
  type WriteContext,
} from './listing-rules';
import { HOUR_MS } from '../platform/time';

function loadWritable(ctx: WriteContext, id: string): ListingWithCardRow {
  const row = ctx.store.listings.get(id, ctx.scope);
  if (!row) throw notFound();
  if (row.status === 'archived' && row.unavailable_reason === 'sold') {
    throw conflict(`listing ${row.id} is sold; a sold listing cannot be changed`);
  }
  return row;
}

/** Every rule a listing must pass to go (back) on the marketplace. */
function assertCanGoLive(ctx: WriteContext, row: ListingWithCardRow): void {
  if (row.unavailable_reason === 'pending_review') {
    throw notListable(
      'pending_review',
      `listing ${row.id} is awaiting the marketplace review; it goes live when approved`,
    );
  }
  for (const itemId of ctx.store.listings.members(row.id)) {
    const item = ctx.store.catalog.itemById(itemId)!;
    assertNotBlocklisted(ctx, item.cert_number);
    assertCardListable(ctx.store, item, row.id);
  }
  assertUnderCap(ctx);
}

/** A listing taken off the marketplace: no window, no schedule. */
const offMarket = (status: 'draft' | 'archived', reason: string): ListingPatch => ({
  status,
  unavailable_reason: reason,
  window_ends_at: null,
  scheduled_go_live_at: null,
});

/** A listing going live now: a fresh window of `durationHours`. */
function goLive(now: number, durationHours: number): ListingPatch {
  return {
    status: 'active',
    unavailable_reason: null,
    listed_at: now,
    window_ends_at: now + durationHours * HOUR_MS,
    scheduled_go_live_at: null,
    duration_hours: durationHours,
  };
}

/** PUT /listings/{id}: only the given fields change; fires `products/update` when any did. */
export function updateListing(
  ctx: WriteContext,
  ids: IdSource,
  id: string,
  input: UpdateInput,
): ListingWithCardRow {
  const { store, now } = ctx;
  const row = loadWritable(ctx, id);
  const patch: ListingPatch = {};

  if (input.title !== undefined) patch.title = input.title;
  if (input.description !== undefined) patch.description = input.description;
  if (input.accepts_trades !== undefined) patch.accepts_trades = input.accepts_trades ? 1 : 0;
  if (input.auto_relist !== undefined) patch.auto_relist = input.auto_relist ? 1 : 0;
  // One-way: false on a promoted listing changes nothing.
  if (input.promoted === true) patch.promoted = 1;

  const price = input.price_cents ?? row.price_cents;
  if (input.price_cents !== undefined) patch.price_cents = input.price_cents;
  const offersOn = input.accepts_offers ?? row.accepts_offers === 1;
  if (input.accepts_offers !== undefined) patch.accepts_offers = offersOn ? 1 : 0;
  let minimum = row.minimum_offer_cents;
  if (!offersOn) {
    // Turning offers off clears the floor; a floor sent while offers are off is ignored.
    minimum = null;
  } else if (input.minimum_offer_cents !== undefined) {
    if (input.minimum_offer_cents !== null && input.minimum_offer_cents > price) {
      // When the price was sent too, the two values conflict: both fields carry the message.
      throw validationError({
        minimum_offer: [OFFER_ABOVE_PRICE],
        ...(input.price_cents !== undefined ? { price: [PRICE_BELOW_OFFER] } : {}),
      });
    }
    minimum = input.minimum_offer_cents;
  } else if (minimum !== null && minimum > price) {
    // A price edit below the floor clears it.
    minimum = null;
  }
  if (minimum !== row.minimum_offer_cents) patch.minimum_offer_cents = minimum;

  const isScheduled = row.status === 'draft' && row.unavailable_reason === 'scheduled';
  if (input.status === 'active' && row.status !== 'active') {
    assertCanGoLive(ctx, row);
    if (row.listed_at === null && !VERIFIED.includes(row.card_grader)) {
      // A review-bound listing that was withdrawn before approval goes back to review, not live.
      Object.assign(patch, offMarket('draft', 'pending_review'));
      if (input.duration_hours !== undefined) patch.duration_hours = input.duration_hours;
    } else Object.assign(patch, goLive(now, input.duration_hours ?? row.duration_hours));
  } else if (input.status === 'draft') {
    if (row.status === 'active' || isScheduled) {
      Object.assign(patch, offMarket('draft', 'draft'));
    } else if (row.unavailable_reason === 'pending_review') {
      throw validationError({
        status: ['cannot be set while the listing is pending review (DELETE withdraws it)'],
      });
    } else if (row.status === 'archived') {
      throw validationError({
        status: ['only an active or scheduled listing can be set to draft'],
      });
    }
  } else if (input.duration_hours !== undefined) {
    // Without a move live it extends the current listing (or sizes its next window).
    patch.duration_hours = input.duration_hours;
    if (row.status === 'active') {
      patch.window_ends_at = (row.window_ends_at ?? now) + input.duration_hours * HOUR_MS;
    }
  }

  if (input.scheduled_go_live_at !== undefined) {
    if (row.unavailable_reason === 'pending_review') {
      throw validationError({
        scheduled_go_live_at: ['cannot be set while the listing is pending review'],
      });
    }
    const notLiveYet =
      row.status === 'draft' &&
      row.listed_at === null &&
      (row.unavailable_reason === 'scheduled' || row.unavailable_reason === 'draft');
    if (!notLiveYet) {
      throw validationError({
        scheduled_go_live_at: ['can only be set on a listing that has not been live yet'],
      });
    }
    const at = input.scheduled_go_live_at;
    if (at !== null && at > now) {
      Object.assign(patch, {
        status: 'draft',
        unavailable_reason: 'scheduled',
        scheduled_go_live_at: at,
      });
    } else {
      assertCanGoLive(ctx, row);
      Object.assign(patch, goLive(now, input.duration_hours ?? row.duration_hours));
    }
  }

  if (Object.keys(patch).length > 0) changeListing({ store, ids, now }, row.id, patch);
  return store.listings.getById(row.id)!;
}

/** DELETE /listings/{id}: soft and idempotent; an archived listing is returned as it stands. */
export function deactivateListing(
  ctx: WriteContext,
  ids: IdSource,
  id: string,
): ListingWithCardRow {
  const { store, now } = ctx;
  const row = loadWritable(ctx, id);
  if (row.status === 'archived') return row;
  changeListing(
    { store, ids, now },
    row.id,
    offMarket('archived', 'deactivated_by_seller'),
    'products/delete',
  );
  return store.listings.getById(row.id)!;
}
