import { formatCents } from '../../shared/money';
import { isoTime } from '../platform/time';
import type { ListingRow, ListingWithCardRow } from '../store/rows';
import { bool } from './shape';

/** A seed photo (`https://images.sandbox.example/slabs/<cert>-front.jpg`), its cert captured. */
const SEED_IMAGE = /^https:\/\/images\.sandbox\.example\/slabs\/([A-Za-z0-9]{1,32})-front\.jpg$/;
/** Where this sandbox draws its slab pictures (market-pages.ts). */
export const SLAB_IMAGE_PATH = '/market/images/slabs/';

/** Absolute public page URLs, built from the origin the request came to. */
export function publicUrls(origin: string) {
  return {
    listing: (row: Pick<ListingRow, 'handle'>) => `${origin}/market/listings/${row.handle}`,
    card: (itemId: string) => `${origin}/market/cards/${itemId}`,
    /** A photo as stored: the seed's slab pictures become this sandbox's own. */
    image: (src: string) => {
      const cert = SEED_IMAGE.exec(src)?.[1];
      return cert === undefined ? src : `${origin}${SLAB_IMAGE_PATH}${cert}.svg`;
    },
  };
}

export type PublicUrls = ReturnType<typeof publicUrls>;

/** Whether a listing can be put back on the marketplace by the seller. */
export function canReactivate(row: Pick<ListingRow, 'status' | 'unavailable_reason'>): boolean {
  if (row.status === 'active') return false;
  return !['sold', 'pending_review'].includes(row.unavailable_reason ?? '');
}

/** The listing's nested card: the spec's fields plus the player and the variant. */
function cardOf(row: ListingWithCardRow) {
  return {
    id: row.primary_item_id,
    title: row.card_title,
    cert_number: row.card_cert_number,
    grader: row.card_grader,
    grade: row.card_grade,
    year: row.card_year,
    set: row.card_set ?? 'Unknown',
    category: row.card_category ?? 'non_sport',
    player: row.card_player,
    variant: row.card_variant ?? 'Base',
  };
}

const minimumOfferOf = (row: ListingRow) =>
  row.minimum_offer_cents === null ? null : formatCents(row.minimum_offer_cents);

function imagesOf(row: ListingRow, urls: PublicUrls) {
  const images = JSON.parse(row.images) as string[];
  return images.map((src, index) => ({
    id: `img_${row.id.slice(4)}_${index + 1}`,
    position: index + 1,
    src: urls.image(src),
  }));
}

/** What both listing views carry beyond the spec's tables: sale terms, window and schedule. */
function saleTermsOf(row: ListingRow) {
  return {
    description: row.description,
    minimum_offer: minimumOfferOf(row),
    accepts_trades: bool(row.accepts_trades),
    auto_relist: bool(row.auto_relist),
    promoted: bool(row.promoted),
    duration_hours: row.duration_hours,
    window_ends_at: isoTime(row.window_ends_at),
    scheduled_go_live_at: isoTime(row.scheduled_go_live_at),
  };
}

/** GET /listings.json's row: the spec's fields, availability, public page, then sale terms. */
export function listingListView(row: ListingWithCardRow, urls: PublicUrls) {
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    price: formatCents(row.price_cents),
    card: cardOf(row),
    unavailable_reason: row.unavailable_reason,
    can_reactivate: canReactivate(row),
    url: urls.listing(row),
    is_lot: bool(row.is_lot),
    card_count: row.card_count,
    accepts_offers: bool(row.accepts_offers),
    created_at: isoTime(row.created_at),
    listed_at: isoTime(row.listed_at),
    updated_at: isoTime(row.updated_at),
    ...saleTermsOf(row),
  };
}

/** GET /listings/{id}.json: the list view, its card's page and the images. */
export function listingSingleView(row: ListingWithCardRow, urls: PublicUrls) {
  return {
    ...listingListView(row, urls),
    card: { ...cardOf(row), url: urls.card(row.primary_item_id) },
    images: imagesOf(row, urls),
  };
}

/** The product shape (alias paths and webhook payloads): the whole listing under product names. */
export function productView(row: ListingWithCardRow, urls: PublicUrls) {
  const minimumOffer = minimumOfferOf(row);
  return {
    id: row.id,
    title: row.title,
    body_html: row.description,
    status: row.status,
    handle: row.handle,
    vendor: row.card_grader,
    product_type: row.card_category ?? 'non_sport',
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
    published_at: isoTime(row.listed_at),
    variants: [
      {
        id: `var_${row.id.replace(/^lst_/, '')}`,
        product_id: row.id,
        title: row.is_lot ? `Lot of ${row.card_count}` : 'Default',
        price: formatCents(row.price_cents),
        sku: row.card_cert_number,
        inventory_item_id: row.primary_item_id,
        inventory_quantity: row.status === 'active' ? 1 : 0,
        svc_minimum_offer: minimumOffer,
      },
    ],
    images: imagesOf(row, urls),
    svc_card: { ...cardOf(row), url: urls.card(row.primary_item_id) },
    svc_unavailable_reason: row.unavailable_reason,
    svc_can_reactivate: canReactivate(row),
    svc_is_lot: bool(row.is_lot),
    svc_card_count: row.card_count,
    svc_inventory_item_ids: row.member_ids.split(','),
    svc_accepts_offers: bool(row.accepts_offers),
    svc_minimum_offer: minimumOffer,
    svc_accepts_trades: bool(row.accepts_trades),
    svc_auto_relist: bool(row.auto_relist),
    svc_promoted: bool(row.promoted),
    svc_duration_hours: row.duration_hours,
    svc_window_ends_at: isoTime(row.window_ends_at),
    svc_scheduled_go_live_at: isoTime(row.scheduled_go_live_at),
    svc_listed_at: isoTime(row.listed_at),
    svc_url: urls.listing(row),
  };
}
