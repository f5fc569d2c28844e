import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { awaitsShipment } from './order-money';
import { salesKeys, type Loaded, type OrderFacts } from './sales-queries';

/**
 * How many orders wait for the seller's shipment to the hub, from the orders already in the cache
 * (the overview's and the money pages' query): reading it starts no request, so the navigation
 * costs the first load nothing. `undefined` until some page has loaded the orders.
 */
export function useShipQueueCount(): number | undefined {
  const queryClient = useQueryClient();
  const subscribe = useCallback(
    (onChange: () => void) => queryClient.getQueryCache().subscribe(onChange),
    [queryClient],
  );
  const read = useCallback(() => {
    const loaded = queryClient.getQueryData<Loaded<OrderFacts>>(salesKeys.orders());
    return loaded ? loaded.rows.filter(awaitsShipment).length : undefined;
  }, [queryClient]);
  return useSyncExternalStore(subscribe, read, read);
}
