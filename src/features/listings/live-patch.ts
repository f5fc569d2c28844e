import type { QueryClient } from '@tanstack/react-query';
import type { ListingRead } from '../../client';
import { isSoldReason } from './catalogue-row';
import { updateKeptListing } from './catalogue-query';
import { listingKeys } from './listing-keys';
import { markSold } from './live-sales';

/** What a `products/*` payload (the product form) says, read field by field: only what it carries. */
export interface ProductChange {
  id: string;
  title?: string;
  status?: string;
  reason?: string | null;
  canReactivate?: boolean;
  price?: string;
  acceptsOffers?: boolean;
  updatedAt?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads a product payload tolerantly; null without a string id. */
export function productChangeOf(payload: unknown): ProductChange | null {
  if (!isRecord(payload) || typeof payload.id !== 'string') return null;
  const change: ProductChange = { id: payload.id };
  if (typeof payload.title === 'string') change.title = payload.title;
  if (typeof payload.status === 'string') change.status = payload.status;
  const reason = payload.svc_unavailable_reason;
  if (typeof reason === 'string' || reason === null) change.reason = reason;
  if (typeof payload.svc_can_reactivate === 'boolean') {
    change.canReactivate = payload.svc_can_reactivate;
  }
  const variant = Array.isArray(payload.variants) ? (payload.variants[0] as unknown) : undefined;
  if (
    isRecord(variant) &&
    typeof variant.price === 'string' &&
    /^\d+\.\d{2}$/.test(variant.price)
  ) {
    change.price = variant.price;
  }
  if (typeof payload.svc_accepts_offers === 'boolean')
    change.acceptsOffers = payload.svc_accepts_offers;
  if (typeof payload.updated_at === 'string') change.updatedAt = payload.updated_at;
  return change;
}

/**
 * Applies a `products/*` delivery: the catalogue row is patched from the payload (a sale or
 * deactivation is whole there); a change lacking the price or an unknown listing is read with one
 * incremental refresh; an open detail page reads its listing again. True when a read was asked.
 */
export function applyProductEvent(
  queryClient: QueryClient,
  topic: string,
  payload: unknown,
): boolean {
  const change = productChangeOf(payload);
  if (!change) {
    void queryClient.invalidateQueries({ queryKey: listingKeys.lists() });
    return true;
  }
  if (isSoldReason(change.reason)) markSold(change.id);
  const unavailable = change.status !== undefined && change.status !== 'active';
  const whole =
    topic !== 'products/create' &&
    change.status !== undefined &&
    (change.price !== undefined || (unavailable && change.reason !== undefined));
  const found = updateKeptListing(queryClient, change.id, (current) => {
    const row: ListingRead = { ...current };
    if (change.title !== undefined) row.title = change.title;
    if (change.status !== undefined) row.status = change.status;
    if (change.price !== undefined) row.price = change.price;
    if (change.acceptsOffers !== undefined) row.accepts_offers = change.acceptsOffers;
    if (change.updatedAt !== undefined) row.updated_at = change.updatedAt;
    if (change.reason !== undefined) row.unavailable_reason = change.reason;
    if (change.canReactivate !== undefined) row.can_reactivate = change.canReactivate;
    return row;
  });
  void queryClient.invalidateQueries({ queryKey: listingKeys.detail(change.id) });
  if (found && whole) return false;
  void queryClient.invalidateQueries({ queryKey: listingKeys.catalogue() });
  return true;
}
