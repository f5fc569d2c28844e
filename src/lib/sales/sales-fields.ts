/**
 * The fields the money figures read of orders and listings: their kept copies walk with only
 * these (`fields`), less than half the bytes of the full listings to fetch, parse and keep.
 * `created_at` is in both: it is the kept copy's fingerprint (see kept-sync).
 */
import type { ListingRead, Order } from '../../client';

/** The order fields the money figures read (all documented): a lighter walk than every field. */
export const ORDER_FIELDS = [
  'id',
  'name',
  'created_at',
  'closed_at',
  'cancelled_at',
  'financial_status',
  'subtotal_price',
  'total_tax',
  'total_refunded',
  'line_items',
  'svc_sold_at',
  'svc_seller_shipment',
  'svc_payout',
] as const satisfies readonly (keyof Order)[];
/** The fields read, and the names of those the server sent in a form that could not be read. */
export type OrderFacts = Pick<Order, (typeof ORDER_FIELDS)[number] | 'unreadable' | 'absent'>;

/**
 * The listing fields the figures read: the documented ones, plus `window_ends_at` and `promoted`,
 * which a server that does not show them simply leaves out.
 */
export const LISTING_FIELDS = [
  'id',
  'created_at',
  'title',
  'status',
  'price',
  'listed_at',
  'card',
  'window_ends_at',
  'promoted',
] as const satisfies readonly (keyof ListingRead)[];
export type ListingFacts = Pick<ListingRead, (typeof LISTING_FIELDS)[number]>;
