import { pingQuery } from '../connection-query';
import { ordersQuery } from '../orders/order-queries';
import { mayRead } from '../required-scopes';
import type { Prefetch } from '../route-prefetch';

/**
 * The root layout's loader: the header's counts (orders to ship to the hub) are a view of the
 * kept orders, so every page starts that one read, and the count is there after a direct load
 * of any page, not only after a page that reads orders. A key that may not read orders gets no
 * count and no refused request.
 */
export const prefetchHeaderCounts: Prefetch = ({ client, queryClient }) => {
  void queryClient
    .ensureQueryData(pingQuery(client))
    .then((ping) => {
      if (mayRead(ping.scopes, 'orders'))
        void queryClient.prefetchQuery(ordersQuery(client, queryClient));
    })
    // A failed ping is the header's to show (its own ping query).
    .catch(() => undefined);
};
