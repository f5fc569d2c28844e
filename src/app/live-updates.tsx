import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { listingKeys } from '../features/listings/listing-keys';
import { orderKeys } from '../features/orders/order-keys';
import { useHubStream } from '../lib/live/live-context';
import { salesKeys } from '../lib/sales/sales-queries';

/**
 * What applies a delivery to the caches, and the notices: loaded with the first delivery, so a
 * first page does not carry them (a delivery waits for them once, a few milliseconds).
 */
const loadPatchers = () =>
  Promise.all([
    import('../features/listings/live-patch'),
    import('../features/orders/live-patch'),
    import('../lib/notifications'),
  ]).then(([listings, orders, notices]) => ({ ...listings, ...orders, ...notices }));

/**
 * Connects this tab to the server's event stream and applies every verified webhook to the
 * TanStack Query caches as it arrives (listings, orders, the money figures), with a browser notice for
 * a sale or a shipment due soon. When the stream comes back after a break, the gap is filled
 * with one `updated_at_min` read of each list that is on screen (their refreshes are incremental).
 */
export function LiveUpdates() {
  const stream = useHubStream();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!stream) return;
    let patchers: ReturnType<typeof loadPatchers> | undefined;
    // Deliveries are applied one after another, in the order they came.
    let applied: Promise<unknown> = Promise.resolve();
    const offWebhook = stream.onWebhook((event) => {
      if (event.test) return; // a sample from the test button: shown in the events view only
      patchers ??= loadPatchers();
      const ready = patchers;
      applied = applied
        .then(async () => {
          const { applyProductEvent, applyOrderEvent, noticeFor, notify } = await ready;
          if (event.topic.startsWith('products/')) {
            applyProductEvent(queryClient, event.topic, event.payload);
            void queryClient.invalidateQueries({ queryKey: salesKeys.listings() });
          } else if (event.topic.startsWith('orders/')) {
            const order = applyOrderEvent(queryClient, event.payload);
            void queryClient.invalidateQueries({ queryKey: salesKeys.orders() });
            void queryClient.invalidateQueries({ queryKey: salesKeys.openOrders() });
            const notice = order ? noticeFor(event.topic, order, Date.now()) : null;
            if (notice) notify(notice);
          }
        })
        .catch(() => {
          // The patchers did not load: read the lists on screen instead, and try again next time.
          patchers = undefined;
          refreshLists();
        });
    });
    const refreshLists = () => {
      void queryClient.invalidateQueries({ queryKey: listingKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: orderKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: salesKeys.all });
    };
    const offReconnect = stream.onReconnect(refreshLists);
    stream.start();
    return () => {
      offWebhook();
      offReconnect();
    };
  }, [stream, queryClient]);
  return null;
}
