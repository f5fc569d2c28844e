import type { QueryClient } from '@tanstack/react-query';
import { readProductPayload, type ListingRead } from '../../client';
import { updateKeptListing } from './catalogue-query';
import { listingKeys } from './listing-keys';
import { markSold } from './live-sales';

/**
 * Applies a `products/*` delivery: the catalogue row is patched from the payload (a sale or
 * deactivation is whole there), newest first; a change lacking the price or an unknown listing is
 * read with one incremental refresh; an open detail page reads its listing again. True when a read
 * was asked.
 */
export function applyProductEvent(
  queryClient: QueryClient,
  topic: string,
  payload: unknown,
): boolean {
  const change = readProductPayload(payload);
  if (!change) {
    void queryClient.invalidateQueries({ queryKey: listingKeys.lists() });
    return true;
  }
  const reason = change.svc_unavailable_reason;
  const price = change.variants?.[0]?.price;
  // The spec's one documented sold state: status archived with reason `sold`.
  if (reason === 'sold') markSold(change.id);
  const unavailable = change.status !== undefined && change.status !== 'active';
  const whole =
    topic !== 'products/create' &&
    change.status !== undefined &&
    (price !== undefined || (unavailable && reason !== undefined));
  const found = updateKeptListing(queryClient, change.id, (current) => {
    const row: ListingRead = { ...current };
    if (change.title !== undefined) row.title = change.title;
    if (change.status !== undefined) row.status = change.status;
    if (price !== undefined) row.price = price;
    if (change.svc_accepts_offers !== undefined) row.accepts_offers = change.svc_accepts_offers;
    if (change.updated_at !== undefined) row.updated_at = change.updated_at;
    if (reason !== undefined) row.unavailable_reason = reason;
    if (change.svc_can_reactivate !== undefined) row.can_reactivate = change.svc_can_reactivate;
    return row;
  });
  void queryClient.invalidateQueries({ queryKey: listingKeys.detail(change.id) });
  if (found && whole) return false;
  void queryClient.invalidateQueries({ queryKey: listingKeys.catalogue() });
  return true;
}
