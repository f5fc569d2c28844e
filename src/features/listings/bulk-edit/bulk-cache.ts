import type { QueryClient } from '@tanstack/react-query';
import type { Product } from '../../../client';
import { listingKeys } from '../listing-keys';
import type { Catalogue } from '../catalogue-query';
import type { WriteResult } from './jobs/job-runner';

/**
 * A product as it stands after one landed write: the response's fields (the API's word), and
 * the fields the PUT sent that the response does not carry. A DELETE leaves it deactivated.
 */
export function patchProduct(product: Product, result: WriteResult, now = new Date()): Product {
  const updatedAt = now.toISOString();
  if (result.method === 'DELETE') {
    return {
      ...product,
      status: result.listing.status,
      svc_unavailable_reason: result.listing.unavailable_reason,
      svc_can_reactivate: result.listing.can_reactivate,
      updated_at: updatedAt,
    };
  }
  const body = result.write.body ?? {};
  const listing = result.listing;
  return {
    ...product,
    title: listing.title,
    status: listing.status,
    body_html: body.description ?? product.body_html,
    variants: product.variants.map((variant, i) =>
      i === 0
        ? { ...variant, price: listing.price, svc_minimum_offer: listing.minimum_offer }
        : variant,
    ),
    svc_minimum_offer: listing.minimum_offer,
    svc_accepts_offers: listing.accepts_offers,
    svc_accepts_trades: body.accepts_trades ?? product.svc_accepts_trades,
    svc_auto_relist: body.auto_relist ?? product.svc_auto_relist,
    svc_promoted: body.promoted === true ? true : product.svc_promoted,
    svc_duration_hours: body.duration_hours ?? product.svc_duration_hours,
    svc_unavailable_reason: listing.status === 'active' ? null : product.svc_unavailable_reason,
    updated_at: updatedAt,
  };
}

/** Writes one landed change into the catalogue's cache, so the table shows it at once. */
export function applyToCache(queryClient: QueryClient, result: WriteResult): void {
  queryClient.setQueryData<Catalogue>(listingKeys.catalogue(), (catalogue) => {
    if (!catalogue) return catalogue;
    const at = catalogue.rows.findIndex((p) => p.id === result.listingId);
    if (at < 0) return catalogue;
    const rows = catalogue.rows.slice();
    rows[at] = patchProduct(rows[at]!, result);
    return { ...catalogue, rows };
  });
  void queryClient.invalidateQueries({
    queryKey: listingKeys.detail(result.listingId),
    exact: true,
  });
}
