import { formatCents } from '../../shared/money';
import type { ListingWithCardRow } from '../store/rows';
import { canReactivate, type PublicUrls } from './listing-views';

/** POST /listings.json: the create response's `listing`, exactly the spec's fields. */
export function listingCreateView(row: ListingWithCardRow, urls: PublicUrls) {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    status: row.status,
    price: formatCents(row.price_cents),
    card: { id: row.primary_item_id, cert_number: row.card_cert_number, grader: row.card_grader },
    url: urls.listing(row),
  };
}

/** PUT /listings/{id}.json: the update response's `listing`. */
export function listingUpdateView(row: ListingWithCardRow) {
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    price: formatCents(row.price_cents),
    minimum_offer: row.minimum_offer_cents === null ? null : formatCents(row.minimum_offer_cents),
    accepts_offers: row.accepts_offers === 1,
  };
}

/** DELETE /listings/{id}.json: the listing as it now stands. */
export function listingDeleteView(row: ListingWithCardRow) {
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    unavailable_reason: row.unavailable_reason,
    can_reactivate: canReactivate(row),
    price: formatCents(row.price_cents),
  };
}
