import { pingQuery } from '../connection-query';
import { ordersQuery } from '../orders/order-queries';
import { mayRead } from '../required-scopes';
import type { Prefetch } from '../route-prefetch';

/** Root loader: the header's ship count reads the kept orders, so it is there on any page. */
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
