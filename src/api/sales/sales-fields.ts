/** The fields the money figures read: they take any row that has them. */
import type { ListingRead, Order } from '../../client';

/** The order fields the money figures read (all documented). */
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

/** The documented listing fields plus `window_ends_at` and `promoted`, when a server sends them. */
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
