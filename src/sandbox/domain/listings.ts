import type { Store } from '../store';
import type { ListingPatch } from '../store/listings-store';
import type { ListingRow, ListingStatus, Scope } from '../store/rows';
import { emitProductEvent, type Topic } from './events';
import type { IdSource } from './ids';
import { refreshLevels } from './levels';
import { HOUR_MS } from '../platform/time';

export const DURATIONS = [168, 336, 504, 720] as const;
export const DEFAULT_DURATION = 720;

export interface ListingTerms {
  title: string;
  description?: string | undefined;
  price_cents: number;
  minimum_offer_cents?: number | null | undefined;
  accepts_offers?: boolean | undefined;
  accepts_trades?: boolean | undefined;
  auto_relist?: boolean | undefined;
  promoted?: boolean | undefined;
  duration_hours?: number | undefined;
  images?: readonly string[] | undefined;
}

/** Where a new listing starts: live now, scheduled, pending review, or another state (seeds). */
export type ListingStart =
  | { kind: 'live'; listedAt?: number }
  | { kind: 'scheduled'; goLiveAt: number }
  | { kind: 'pending_review' }
  | { kind: 'inactive'; status: ListingStatus; reason: string; listedAt: number | null };

/** A marketplace change at one instant: the store, the id source and the time. */
export interface MarketContext {
  store: Store;
  ids: IdSource;
  now: number;
}

/** Changes a listing (stamped now), refreshes its cards' levels and fires its event. */
export function changeListing(
  { store, ids, now }: MarketContext,
  id: string,
  patch: ListingPatch,
  topic: Extract<Topic, `products/${string}`> = 'products/update',
): void {
  store.listings.update(id, { ...patch, updated_at: now });
  refreshLevels(store, store.listings.members(id), now);
  emitProductEvent(store, ids, now, topic, id);
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-')
    .slice(0, 60);
}

/** Inserts a listing of the given cards (the first is the cover card) and updates their levels. */
export function insertListing(
  store: Store,
  ids: IdSource,
  now: number,
  scope: Scope,
  itemIds: readonly string[],
  terms: ListingTerms,
  start: ListingStart,
): ListingRow {
  const id = ids.id('lst');
  const duration = terms.duration_hours ?? DEFAULT_DURATION;
  const accepts = terms.accepts_offers ?? true;
  let status: ListingStatus = 'active';
  let reason: string | null = null;
  let listedAt: number | null = null;
  let windowEnds: number | null = null;
  let scheduled: number | null = null;
  switch (start.kind) {
    case 'live':
      listedAt = start.listedAt ?? now;
      windowEnds = listedAt + duration * HOUR_MS;
      break;
    case 'scheduled':
      status = 'draft';
      reason = 'scheduled';
      scheduled = start.goLiveAt;
      break;
    case 'pending_review':
      status = 'draft';
      reason = 'pending_review';
      break;
    case 'inactive':
      status = start.status;
      reason = start.reason;
      listedAt = start.listedAt;
      break;
  }
  const row: Omit<ListingRow, 'seq'> = {
    id,
    seller_id: scope.sellerId,
    test: scope.test ? 1 : 0,
    title: terms.title,
    description: terms.description ?? '',
    status,
    unavailable_reason: reason,
    price_cents: terms.price_cents,
    minimum_offer_cents: accepts ? (terms.minimum_offer_cents ?? null) : null,
    accepts_offers: accepts ? 1 : 0,
    accepts_trades: terms.accepts_trades ? 1 : 0,
    auto_relist: terms.auto_relist ? 1 : 0,
    promoted: terms.promoted ? 1 : 0,
    duration_hours: duration,
    window_ends_at: windowEnds,
    scheduled_go_live_at: scheduled,
    is_lot: itemIds.length > 1 ? 1 : 0,
    card_count: itemIds.length,
    primary_item_id: itemIds[0]!,
    images: JSON.stringify(terms.images ?? []),
    handle: `${slugify(terms.title)}-${id.slice(-6)}`,
    created_at: now,
    listed_at: listedAt,
    updated_at: now,
  };
  store.transaction(() => {
    store.listings.insert(row, itemIds);
    refreshLevels(store, itemIds, now);
  });
  return store.listings.getById(id)!;
}
