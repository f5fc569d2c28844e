import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { awaitsShipment } from './order-money';
import type { Order } from '../../client';
import type { Kept } from '../kept/kept-sync';
import { orderKeys } from '../orders/order-keys';

/**
 * Orders waiting for shipment to the hub, from the kept orders the root loader starts on every
 * page (`header-counts.ts`): it starts no request itself; undefined until they are in.
 */
export function useShipQueueCount(): number | undefined {
  const queryClient = useQueryClient();
  const subscribe = useCallback(
    (onChange: () => void) => queryClient.getQueryCache().subscribe(onChange),
    [queryClient],
  );
  const read = useCallback(() => {
    const loaded = queryClient.getQueryData<Kept<Order>>(orderKeys.kept());
    return loaded ? loaded.rows.filter(awaitsShipment).length : undefined;
  }, [queryClient]);
  return useSyncExternalStore(subscribe, read, read);
}
