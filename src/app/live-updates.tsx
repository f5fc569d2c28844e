import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useHubStream } from '../api/live/live-context';
import { refreshLists } from '../api/live/refresh-lists';

/** Applying deliveries and notices loads with the first delivery, not with a first page. */
const loadPatchers = () =>
  Promise.all([import('../api/live/apply-delivery'), import('../lib/notifications')]).then(
    ([deliveries, notices]) => ({ ...deliveries, ...notices }),
  );

/** Applies each verified webhook to the caches (and notices); replica changes refresh the lists. */
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
