import { catalogueQuery } from '../listings/catalogue-query';
import { ordersQuery } from '../orders/order-queries';
import { pingQuery } from '../connection-query';
import { mayRead } from '../required-scopes';
import type { Prefetch } from '../route-prefetch';

export type { ListingFacts, OrderFacts } from './sales-fields';

/** Which kept reads a page starts from its route loader. */
export interface SalesReads {
  orders?: boolean;
  listings?: boolean;
  /** Reads wait for the /ping's scopes, or start beside it on pages that explain a refusal. */
  scoped?: boolean;
}

/** A route loader's start of the money reads: the connection, then each readable kept copy. */
export const prefetchSales =
  (reads: SalesReads): Prefetch =>
  ({ client, queryClient }) => {
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
