import type { Prefetch } from '../../lib/route-prefetch';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { Order, SetAsideRecord } from '../../client';
import { ORDER_STATUS_FILTERS, type OrderStatusFilter, type SlabdeskClient } from '../../client';
import { keptOptions } from '../../lib/kept/kept-persister';
import { keptQueryFn } from '../../lib/kept/kept-query';
import { keptOrders } from '../../lib/kept/kept-sources';
import { orderKeys } from './order-keys';
import { compareCodes } from '../../lib/compare-codes';

export interface OrderList {
  rows: readonly Order[];
  /** Orders that could not be read, by id (a later read that parses one takes it off). */
  setAside: SetAsideRecord[];
  syncedAt: string;
  lastChanged: number | undefined;
  /** Local epoch ms when the list was last brought up to date (the kept orders). */
  checkedAt?: number | undefined;
}

/** Which status filter an order falls under; undefined when its timestamps are not known. */
export function orderStatusOf(
  order: Pick<Order, 'cancelled_at' | 'closed_at'>,
): Exclude<OrderStatusFilter, 'any'> | undefined {
  if (order.cancelled_at) return 'cancelled';
  if (order.cancelled_at === undefined) return undefined;
  if (order.closed_at) return 'closed';
  if (order.closed_at === undefined) return undefined;
  return 'open';
}

/** The orders page's status filter from its address: `open` when it names none it knows. */
export const orderStatusFilterOf = (value: string | null): OrderStatusFilter =>
  ORDER_STATUS_FILTERS.find((filter) => filter === value) ?? 'open';

/** The orders page's loader: the list under the address's status filter starts beside the code. */
export const prefetchOrders: Prefetch = ({ client, queryClient }, { url }) => {
  const status = orderStatusFilterOf(url.searchParams.get('status'));
  void queryClient.prefetchQuery(orderListQuery(client, queryClient, status));
};

/**
 * Orders under one status filter: a full walk first, then only orders updated since (any status, so
 * one leaving the filter is seen), merged.
 */
export function orderListQuery(
  client: SlabdeskClient,
  queryClient: QueryClient,
  status: OrderStatusFilter,
) {
  const queryKey = orderKeys.list(status);
  // Every order: the kept orders (kept between visits), shown as soon as this browser's copy is
  // read, while it is brought up to date.
  const kept =
    status === 'any'
      ? keptQueryFn(queryClient, queryKey, keptOrders(client, queryClient), { wholeOnly: true })
      : undefined;
  return queryOptions({
    queryKey,
    ...(kept && keptOptions('orders')),
    queryFn: async ({ signal }): Promise<OrderList> => {
      if (kept) return kept();
      const previous = queryClient.getQueryData<OrderList>(queryKey);
      if (previous) {
        const changed = await client.orders.loadAll({
          signal,
          priority: 'background',
          status: 'any',
          updatedAtMin: new Date(Date.parse(previous.syncedAt) - 5000).toISOString(),
        });
        // A changed order whose status is not shown cannot be placed in or out of this filter
        // by us: the API's own filter decides, with a whole read.
        if (changed.rows.some((order) => orderStatusOf(order) === undefined)) {
          const all = await client.orders.loadAll({ signal, status });
          return { ...all, lastChanged: all.rows.length };
        }
        const byId = new Map(previous.rows.map((order) => [order.id, order]));
        for (const order of changed.rows) byId.set(order.id, order);
        // Kept: the orders this filter now holds, and those whose status is not shown (the
        // API's filter placed them here).
        const rows = [...byId.values()].filter((order) => {
          const now = orderStatusOf(order);
          return now === status || now === undefined;
        });
        rows.sort((a, b) => compareCodes(a.created_at ?? '', b.created_at ?? ''));
        const fresh = new Set(changed.setAside.map((record) => record.id));
        const setAside = [
          ...previous.setAside.filter((r) => !byId.has(r.id ?? '') && !fresh.has(r.id)),
          ...changed.setAside,
        ];
        return { rows, setAside, syncedAt: changed.syncedAt, lastChanged: changed.rows.length };
      }
      const all = await client.orders.loadAll({ signal, status });
      return {
        rows: all.rows,
        setAside: all.setAside,
        syncedAt: all.syncedAt,
        lastChanged: undefined,
      };
    },
  });
}

export const orderDetailQuery = (client: SlabdeskClient, idOrCode: string) =>
  queryOptions({
    queryKey: orderKeys.detail(idOrCode),
    queryFn: async ({ signal }): Promise<Order> =>
      (await client.orders.get(idOrCode, { signal })).data,
  });

/** The order page's loader: the order's read starts while the page's code loads. */
export const prefetchOrder: Prefetch = ({ client, queryClient }, { params }) => {
  if (params.orderId) void queryClient.prefetchQuery(orderDetailQuery(client, params.orderId));
};
