import type { QueryClient } from '@tanstack/react-query';
import { Order, readTolerant } from '../../client';
import { orderKeys } from './order-keys';
import { orderStatusOf, type OrderList } from './order-queries';
import { compareCodes } from '../../lib/compare-codes';

/**
 * Applies an `orders/*` delivery to the order's detail and every order list, joining the list its
 * status now matches; read field by field. Without a readable id or status, one incremental refresh
 * of the lists instead. Returns the order, if read.
 */
export function applyOrderEvent(queryClient: QueryClient, payload: unknown): Order | null {
  const parsed = readTolerant(Order, payload);
  if (!parsed.ok || orderStatusOf(parsed.value) === undefined) {
    void queryClient.invalidateQueries({ queryKey: orderKeys.lists() });
    const id = (payload as { id?: unknown } | null)?.id;
    if (typeof id === 'string')
      void queryClient.invalidateQueries({ queryKey: orderKeys.detail(id) });
    return null;
  }
  const order: Order = parsed.value;
  queryClient.setQueryData(orderKeys.detail(order.id), order);
  if (order.name && queryClient.getQueryData(orderKeys.detail(order.name)) !== undefined) {
    queryClient.setQueryData(orderKeys.detail(order.name), order);
  }
  for (const [key, list] of queryClient.getQueriesData<OrderList>({
    queryKey: orderKeys.lists(),
  })) {
    if (!list) continue;
    const filter = (key[2] as { status?: string } | undefined)?.status ?? 'any';
    const belongs = filter === 'any' || orderStatusOf(order) === filter;
    const rows = list.rows.filter((row) => row.id !== order.id);
    if (belongs) {
      rows.push(order);
      rows.sort((a, b) => compareCodes(a.created_at ?? '', b.created_at ?? ''));
    }
    queryClient.setQueryData<OrderList>(key, { ...list, rows });
  }
  return order;
}
