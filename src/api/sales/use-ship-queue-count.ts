import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { awaitsShipment } from '../orders/shipment';
import type { Order } from '../../client';
import type { Kept } from '../kept/kept-sync';
import { orderKeys } from '../orders/order-keys';

/** Each kept copy's count, worked out once: the cache's every event asks again. */
const counted = new WeakMap<Kept<Order>, number>();

/** Orders waiting to ship to the hub, from the kept orders the root loader starts. */
export function useShipQueueCount(): number | undefined {
  const queryClient = useQueryClient();
  const subscribe = useCallback(
    (onChange: () => void) => queryClient.getQueryCache().subscribe(onChange),
    [queryClient],
  );
  const read = useCallback(() => {
    const loaded = queryClient.getQueryData<Kept<Order>>(orderKeys.kept());
    if (!loaded) return undefined;
    let count = counted.get(loaded);
    if (count === undefined) {
      count = loaded.rows.filter(awaitsShipment).length;
      counted.set(loaded, count);
    }
    return count;
  }, [queryClient]);
  return useSyncExternalStore(subscribe, read, read);
}
