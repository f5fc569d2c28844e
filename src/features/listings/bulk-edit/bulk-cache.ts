import type { QueryClient } from '@tanstack/react-query';
import type { ListingRead } from '../../../client';
import { listingKeys } from '../listing-keys';
import { updateKeptListing } from '../catalogue-query';
import type { WriteResult } from './jobs/job-runner';
import { rememberWrite } from '../written-terms';

/**
 * A list-view row after a landed write: the response's fields, plus the PUT's terms the response
 * lacks where the row shows that term (none invented); a DELETE leaves it deactivated.
 */
export function patchListing(
  listing: ListingRead,
  result: WriteResult,
  now = new Date(),
): ListingRead {
  const touched = listing.updated_at !== undefined ? { updated_at: now.toISOString() } : {};
  if (result.method === 'DELETE') {
    return {
      ...listing,
      ...touched,
      status: result.listing.status,
      unavailable_reason: result.listing.unavailable_reason,
      can_reactivate: result.listing.can_reactivate,
    };
  }
  const body = result.write.body ?? {};
  const written = result.listing;
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

/** Writes one landed change into the catalogue's cache, so the table shows it at once. */
export function applyToCache(queryClient: QueryClient, result: WriteResult): void {
  if (result.method === 'PUT') rememberWrite(result.listingId, result.write.body, result.listing);
  updateKeptListing(queryClient, result.listingId, (row) => patchListing(row, result));
  void queryClient.invalidateQueries({
    queryKey: listingKeys.detail(result.listingId),
    exact: true,
  });
}
