import { catalogueQuery } from '../listings/catalogue-query';
import { ordersQuery } from '../orders/order-queries';
import { pingQuery } from '../connection-query';
import { mayRead } from '../required-scopes';
import type { RouteDeps } from '../route-prefetch';
import type { ListingRead, Order } from '../../client';

/** Which kept reads a page starts from its route loader. */
export interface SalesReads {
  orders?: boolean;
  listings?: boolean;
  /** Reads wait for the /ping's scopes, or start beside it on pages that explain a refusal. */
  scoped?: boolean;
}

/** A route loader's start of the money reads: the connection, then each readable kept copy. */
export const prefetchSales =
  (reads: SalesReads) =>
  ({ client, queryClient }: RouteDeps): void => {
    const start = (may: (resource: 'orders' | 'listings') => boolean) => {
      if (reads.orders && may('orders'))
        void queryClient.prefetchQuery(ordersQuery(client, queryClient));
      if (reads.listings && may('listings'))
        void queryClient.prefetchQuery(catalogueQuery(client, queryClient));
    };
    // A failed ping is the page's to show (its own ping query).
    const ping = queryClient.ensureQueryData(pingQuery(client)).catch(() => undefined);
    if (!reads.scoped) start(() => true);
    else void ping.then((known) => known && start((resource) => mayRead(known.scopes, resource)));
  };

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
