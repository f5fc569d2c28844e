import type { QueryClient } from '@tanstack/react-query';
import { readOrderPayload, type Order } from '../../client';
import { compareCodes } from '../compare-codes';
import type { Kept } from '../kept/kept-sync';
import { isOlder, patchKeptRow } from '../kept/kept-rows';
import { orderKeys } from './order-keys';
import type { KeptOrder } from './order-queries';

/** Applies an `orders/*` delivery to detail and kept orders, newest first; else a refresh. */
export function applyOrderEvent(queryClient: QueryClient, payload: unknown): Order | null {
  const order = readOrderPayload(payload);
  if (!order) {
    void queryClient.invalidateQueries({ queryKey: orderKeys.kept(), exact: true });
    return null;
  }
  for (const key of [order.id, order.name]) {
    if (key === undefined) continue;
    const shown = queryClient.getQueryData<Order>(orderKeys.detail(key));
    if (key === order.id || shown !== undefined) {
      if (!isOlder(order, shown)) queryClient.setQueryData(orderKeys.detail(key), order);
    }
  }
  const kept = queryClient.getQueryData<Kept<KeptOrder>>(orderKeys.kept());
  if (!kept) return order;
  const patched = patchKeptRow<KeptOrder>(queryClient, orderKeys.kept(), order.id, () => order);
  if (patched === 'older') return order;
  if (patched === 'absent') {
    const rows = [...kept.rows, order];
    rows.sort((a, b) => compareCodes(a.created_at ?? '', b.created_at ?? ''));
    queryClient.setQueryData<Kept<KeptOrder>>(orderKeys.kept(), { ...kept, rows });
  }
  // Whether it is still open is the API's filter's to say: its changes since the last read.
  if (!order.cancelled_at && !order.closed_at) {
    void queryClient.invalidateQueries({ queryKey: orderKeys.kept(), exact: true });
  }
  return order;
}
