import type { QueryClient } from '@tanstack/react-query';
import type {
  ListingDetailRead,
  ListingCreated,
  ListingDeleted,
  ListingRead,
  ListingUpdated,
  ListingUpdateInput,
} from '../../client';
import { listingKeys } from './listing-keys';
import { activityKeys } from '../activity/activity-keys';
import { updateKeptListing } from './catalogue-query';
import { rememberWrite } from './written-terms';

/** What a landed listing write answered, with what was sent: the one input of `applyListingWrite`. */
export type ListingWriteAnswer =
  | {
      method: 'PUT';
      listingId: string;
      body: ListingUpdateInput | undefined;
      listing: ListingUpdated;
    }
  | { method: 'DELETE'; listingId: string; listing: ListingDeleted }
  | { method: 'POST'; listingId: string; listing: ListingCreated };

/** A list row after a write: the answer's fields, plus the PUT's terms it lacks (none invented). */
export function patchListing(
  listing: ListingRead,
  answer: Exclude<ListingWriteAnswer, { method: 'POST' }>,
  now = new Date(),
): ListingRead {
  const touched = listing.updated_at !== undefined ? { updated_at: now.toISOString() } : {};
  if (answer.method === 'DELETE') {
    return {
      ...listing,
      ...touched,
      status: answer.listing.status,
      unavailable_reason: answer.listing.unavailable_reason,
      can_reactivate: answer.listing.can_reactivate,
    };
  }
  const body = answer.body ?? {};
  const written = answer.listing;
  const shown = <K extends keyof ListingRead>(key: K, value: ListingRead[K] | undefined) =>
    listing[key] !== undefined && value !== undefined ? { [key]: value } : {};
  return {
    ...listing,
    ...touched,
    title: written.title,
    status: written.status,
    price: written.price,
    accepts_offers: written.accepts_offers,
    ...shown('minimum_offer', written.minimum_offer),
    ...shown('description', body.description),
    ...shown('accepts_trades', body.accepts_trades),
    ...shown('auto_relist', body.auto_relist),
    ...shown('promoted', body.promoted === true ? true : undefined),
    ...shown('duration_hours', body.duration_hours),
    ...(written.status === 'active'
      ? {
          ...shown('unavailable_reason', null),
          ...shown('can_reactivate', false),
        }
      : {}),
  };
}

/** Every listing write's way back: the answer into the catalogue; only the unknown read again. */
export function applyListingWrite(queryClient: QueryClient, answer: ListingWriteAnswer): void {
  if (answer.method === 'PUT') rememberWrite(answer.listingId, answer.body, answer.listing);
  // The server logged the write before this answer arrived: the listing's History and the
  // Activity page read it again (only those on screen refetch now).
  void queryClient.invalidateQueries({ queryKey: activityKeys.all() });
  if (answer.method === 'POST') {
    void queryClient.invalidateQueries({ queryKey: listingKeys.catalogue(), exact: true });
    return;
  }
  const known = updateKeptListing(queryClient, answer.listingId, (row) =>
    patchListing(row, answer),
  );
  // A listing the catalogue does not hold yet: its rows changed since the last read bring it.
  if (!known && queryClient.getQueryData(listingKeys.catalogue()) !== undefined) {
    void queryClient.invalidateQueries({ queryKey: listingKeys.catalogue(), exact: true });
  }
  if (!patchDetail(queryClient, answer)) {
    void queryClient.invalidateQueries({
      queryKey: listingKeys.detail(answer.listingId),
      exact: true,
    });
  }
}

/** The single view from the answer alone where it tells all; false when it must be read again. */
function patchDetail(
  queryClient: QueryClient,
  answer: Exclude<ListingWriteAnswer, { method: 'POST' }>,
): boolean {
  const key = listingKeys.detail(answer.listingId);
  const shown = queryClient.getQueryData<ListingDetailRead>(key);
  if (!shown) return true;
  const written = answer.listing;
  if (answer.method === 'PUT') {
    if (written.status !== shown.status) return false;
    // Terms the answer does not echo (description, schedule) are read again when they were sent.
    if (Object.keys(answer.body ?? {}).some((field) => !ECHOED.has(field))) return false;
  }
  const next: ListingDetailRead = {
    ...shown,
    title: written.title,
    status: written.status,
    price: written.price,
  };
  if (answer.method === 'DELETE') {
    next.unavailable_reason = answer.listing.unavailable_reason;
    next.can_reactivate = answer.listing.can_reactivate;
  } else {
    next.accepts_offers = answer.listing.accepts_offers;
    if (shown.minimum_offer !== undefined) next.minimum_offer = answer.listing.minimum_offer;
  }
  queryClient.setQueryData(key, next);
  return true;
}

/** The PUT body fields the update answer echoes (spec: id, title, status, price, offers). */
const ECHOED: ReadonlySet<string> = new Set([
  'title',
  'status',
  'price',
  'accepts_offers',
  'minimum_offer',
]);
