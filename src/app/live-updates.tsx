import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { applyProductEvent } from '../features/listings/live-patch';
import { listingKeys } from '../features/listings/listing-keys';
import { applyOrderEvent } from '../features/orders/live-patch';
import { orderKeys } from '../features/orders/order-keys';
import { useHubStream } from '../lib/live/live-context';
import { salesKeys } from '../lib/sales/sales-queries';
import { noticeFor, notify } from '../lib/notifications';

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
    const offWebhook = stream.onWebhook((event) => {
      if (event.test) return; // a sample from the test button: shown in the events view only
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
    });
    const offReconnect = stream.onReconnect(() => {
      void queryClient.invalidateQueries({ queryKey: listingKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: orderKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: salesKeys.all });
    });
    stream.start();
    return () => {
      offWebhook();
      offReconnect();
    };
  }, [stream, queryClient]);
  return null;
}
