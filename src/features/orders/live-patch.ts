import type { QueryClient } from '@tanstack/react-query';
import { Order, readTolerant } from '../../client';
import { orderKeys } from './order-keys';
import { orderStatusOf, type OrderList } from './order-queries';
import { compareCodes } from '../../lib/compare-codes';

/**
 * Applies an `orders/*` delivery (the payload is the order's single view) to this tab's caches:
 * the order's detail (by id and by code) and every order list, where it replaces the order or
 * joins the list its status filter now matches (a new sale appears in Open at once; a
 * cancelled one leaves it). The payload is read field by field, as a GET is; one without a
 * readable id, or whose status cannot be told, is read with one incremental (`updated_at_min`)
 * refresh of the lists instead. Returns the order, if it read.
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
