import type { QueryClient } from '@tanstack/react-query';
import {
  readProductPayload,
  type ListingDetailRead,
  type ListingRead,
  type ProductPayload,
} from '../../client';
import { isOlder } from '../kept/kept-rows';
import { updateKeptListing } from './catalogue-query';
import { listingKeys } from './listing-keys';
import { markSold } from './live-sales';

/** Applies a `products/*` delivery to row and view, newest first; true when a read was asked. */
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
  if (!patchDetail(queryClient, change, price)) {
    void queryClient.invalidateQueries({ queryKey: listingKeys.detail(change.id) });
  }
  if (found && whole) return false;
  void queryClient.invalidateQueries({ queryKey: listingKeys.catalogue() });
  return true;
}

/** The single view from a product payload, when it names every field the view changes by. */
function patchDetail(
  queryClient: QueryClient,
  change: ProductPayload,
  price: string | undefined,
): boolean {
  const key = listingKeys.detail(change.id);
  const shown = queryClient.getQueryData<ListingDetailRead>(key);
  if (!shown) return true;
  if (isOlder(change, shown)) return true;
  const reason = change.svc_unavailable_reason;
  if (
    change.title === undefined ||
    change.status === undefined ||
    price === undefined ||
    reason === undefined ||
    change.svc_can_reactivate === undefined ||
    (shown.description !== undefined && change.body_html === undefined) ||
    // The payload does not carry the minimum offer, which a price or offers change may clear.
    (shown.minimum_offer != null &&
      (price !== shown.price || change.svc_accepts_offers !== shown.accepts_offers))
  ) {
    return false;
  }
  const next: ListingDetailRead = {
    ...shown,
    title: change.title,
    status: change.status,
    price,
    unavailable_reason: reason,
    can_reactivate: change.svc_can_reactivate,
  };
  if (change.body_html !== undefined && shown.description !== undefined) {
    next.description = change.body_html;
  }
  if (change.svc_accepts_offers !== undefined) next.accepts_offers = change.svc_accepts_offers;
  if (change.updated_at !== undefined && shown.updated_at !== undefined) {
    next.updated_at = change.updated_at;
  }
  queryClient.setQueryData(key, next);
  return true;
}
