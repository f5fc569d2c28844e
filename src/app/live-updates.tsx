import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useHubStream } from '../api/live/live-context';
import { refreshLists } from '../api/live/refresh-lists';

/**
 * What applies a delivery to the caches, and the notices: loaded with the first delivery, so a
 * first page does not carry them (a delivery waits for them once, a few milliseconds).
 */
const loadPatchers = () =>
  Promise.all([import('../api/live/apply-delivery'), import('../lib/notifications')]).then(
    ([deliveries, notices]) => ({ ...deliveries, ...notices }),
  );

/**
 * Connects this tab to the server's event stream and applies every verified webhook to the
 * TanStack Query caches as it arrives (listings, orders, the money figures), with a browser notice for
 * a sale or a shipment due soon. Each change the hub's replica takes (a delivery, its
 * reconciliation, a write's answer) has the lists on screen read its change feed, as does a stream
 * that comes back after a break.
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
          const { applyDelivery, noticeFor, notify } = await ready;
          const order = applyDelivery(queryClient, event.topic, event.payload);
          const notice = order ? noticeFor(event.topic, order, Date.now()) : null;
          if (notice) notify(notice);
        })
        .catch(() => {
          // The patchers did not load: read the lists on screen instead, and try again next time.
          patchers = undefined;
          refresh();
        });
    });
    const refresh = () => refreshLists(queryClient);
    const offReconnect = stream.onReconnect(refresh);
    const offReplica = stream.onReplica((event) => refreshLists(queryClient, event.collections));
    stream.start();
    return () => {
      offWebhook();
      offReconnect();
      offReplica();
    };
  }, [stream, queryClient]);
  return null;
}
