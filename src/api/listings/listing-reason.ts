import { useQueries, type UseQueryResult } from '@tanstack/react-query';
import type { ListingDetailRead, ListingRead } from '../../client';
import { useApiClient } from '../api-context';
import type { Availability } from '../inventory/inventory-queries';
import { listingDetailQuery } from './listing-detail-query';

/** Why a listing is off the marketplace, and who said so. */
export interface ListingReason {
  /** Null while available, undefined when no view says. */
  reason: string | null | undefined;
  /** The listing itself (a list row, its single view, or its `active` status), or its card's level. */
  source: 'listing' | 'inventory' | undefined;
  canReactivate: boolean | undefined;
}

/** What a listing's own single view said of its reason (`GET /listings/{id}.json`). */
export type OwnReason = Pick<ListingDetailRead, 'unavailable_reason' | 'can_reactivate'>;

/** What the catalogue reads a reason from beyond the list row. */
export interface ReasonSources {
  /** Each card's inventory level, by inventory item id (the card id of a listing). */
  byItem?: ReadonlyMap<string, Availability> | undefined;
  /** The cards more than one listing holds (relisted through `inventory_item_id`). */
  sharedCards?: ReadonlySet<string> | undefined;
  /** The single views read so far, by listing id. */
  own?: ReadonlyMap<string, OwnReason> | undefined;
}

/** Cards held by more than one listing: a level describes only the card's newest listing. */
export function sharedCardsOf(listings: readonly Pick<ListingRead, 'card'>[]): ReadonlySet<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const listing of listings) {
    const id = listing.card?.id;
    if (id === undefined) continue;
    if (seen.has(id)) shared.add(id);
    else seen.add(id);
  }
  return shared;
}

/** Whether a listing's reason needs its single view: off sale, and its level may be another's. */
export function needsOwnReason(
  listing: Pick<ListingRead, 'status' | 'unavailable_reason' | 'card'>,
  sharedCards: ReadonlySet<string>,
): boolean {
  const card = listing.card?.id;
  return (
    listing.status !== undefined &&
    listing.status !== 'active' &&
    listing.unavailable_reason === undefined &&
    card !== undefined &&
    sharedCards.has(card)
  );
}

/** A listing's reason: its own, else its card's level if the card had only this listing. */
export function listingReason(
  listing: Pick<ListingRead, 'id' | 'status' | 'unavailable_reason' | 'can_reactivate' | 'card'>,
  sources: ReasonSources = {},
): ListingReason {
  if (listing.unavailable_reason !== undefined) {
    return {
      reason: listing.unavailable_reason,
      source: 'listing',
      canReactivate: listing.can_reactivate,
    };
  }
  if (listing.status === 'active') {
    return { reason: null, source: 'listing', canReactivate: listing.can_reactivate };
  }
  const own = sources.own?.get(listing.id);
  if (own && own.unavailable_reason !== undefined) {
    return {
      reason: own.unavailable_reason,
      source: 'listing',
      canReactivate: listing.can_reactivate ?? own.can_reactivate,
    };
  }
  const card = listing.card?.id;
  const level = card === undefined ? undefined : sources.byItem?.get(card);
  const shared = card !== undefined && sources.sharedCards?.has(card) === true;
  // A card available (listed again elsewhere) says nothing about this listing.
  if (!shared && level && level.available === 0 && level.reason) {
    return {
      reason: level.reason,
      source: 'inventory',
      canReactivate: listing.can_reactivate ?? level.canReactivate,
    };
  }
  return { reason: undefined, source: undefined, canReactivate: listing.can_reactivate };
}

const ownOf = (results: UseQueryResult<ListingDetailRead>[]): ReadonlyMap<string, OwnReason> => {
  const own = new Map<string, OwnReason>();
  for (const result of results) {
    if (result.data) own.set(result.data.id, result.data);
  }
  return own;
};

/** Single views of listings whose reason only they give, cached with the page; read so far. */
export function useOwnReasons(
  ids: readonly string[],
  enabled: boolean,
): ReadonlyMap<string, OwnReason> {
  const client = useApiClient();
  return useQueries({
    queries: ids.map((id) => ({ ...listingDetailQuery(client, id), enabled })),
    combine: ownOf,
  });
}
