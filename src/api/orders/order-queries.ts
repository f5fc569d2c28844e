import type { Prefetch } from '../route-prefetch';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { Order, SetAsideRecord } from '../../client';
import { ORDER_STATUS_FILTERS, type OrderStatusFilter, type SlabdeskClient } from '../../client';
import { keptQuery } from '../kept/kept-query';
import { keptSource } from '../kept/kept-sources';
import type { Kept } from '../kept/kept-sync';
import { orderKeys } from './order-keys';
import { prefetchViews } from '../views/view-queries';

export interface OrderList {
  rows: readonly Order[];
  /** Orders that could not be read, by id (a later read that parses one takes it off). */
  setAside: SetAsideRecord[];
  syncedAt: string;
  lastChanged: number | undefined;
  /** Local epoch ms when the list was last brought up to date (the kept orders). */
  checkedAt?: number | undefined;
}

/** An order as kept, with whether `status=open` holds it (delivered orders are closed). */
export type KeptOrder = Order & { slabdesk_open?: boolean | undefined };

/** Which status filter an order falls under; undefined when neither it nor the filter says. */
export function orderStatusOf(
  order: Pick<
    KeptOrder,
    'cancelled_at' | 'closed_at' | 'slabdesk_open' | 'svc_buyer_delivery' | 'svc_payout'
  >,
): Exclude<OrderStatusFilter, 'any'> | undefined {
  if (order.cancelled_at) return 'cancelled';
  // The timestamps first: the hub's note of the open filter may be older than a delivery.
  if (order.closed_at && order.cancelled_at !== undefined) return 'closed';
  if (order.slabdesk_open === true) return 'open';
  // Not shown whether it was cancelled: closed and cancelled cannot be told apart.
  if (order.cancelled_at === undefined) return undefined;
  if (order.slabdesk_open === false) return 'closed';
  // The spec's `closed`: paid out or delivered; the single view shows the buyer's delivery.
  if (order.svc_payout?.status === 'paid' || order.svc_buyer_delivery?.status === 'delivered') {
    return 'closed';
  }
  const shown = order.closed_at === null && order.svc_buyer_delivery?.status !== undefined;
  return shown ? 'open' : undefined;
}

/** The orders page's status filter from its address: `open` when it names none it knows. */
export const orderStatusFilterOf = (value: string | null): OrderStatusFilter =>
  ORDER_STATUS_FILTERS.find((filter) => filter === value) ?? 'open';

/** Every order (`status=any`, every field, each noted open or not by the hub): the one copy. */
export const keptOrders = (client: SlabdeskClient) =>
  keptSource<KeptOrder>(client, 'orders', 'orders');

/** Every order, the one kept copy that orders, money and the ship queue derive from. */
export const ordersQuery = (client: SlabdeskClient, queryClient: QueryClient) =>
  keptQuery(queryClient, orderKeys.kept(), keptOrders(client), 30_000, { wholeOnly: true });

/** The orders page's loader: the kept orders start beside the page's code. */
export const prefetchOrders: Prefetch = (deps) => {
  prefetchViews(deps, 'orders');
  void deps.queryClient.prefetchQuery(ordersQuery(deps.client, deps.queryClient));
};

/** What the API did not say of an order under a filter: it stays under "All", and is named. */
const unplaced = (order: Order): SetAsideRecord => ({
  id: order.id,
  kind: 'unparseable',
  code: 'status_not_shown',
  message: 'The API did not say whether this order is open, closed or cancelled: see all orders.',
  issues: [],
  requestId: undefined,
});

const byStatus = new Map<OrderStatusFilter, (orders: Kept<KeptOrder>) => OrderList>();

/** The view of the kept orders under one status filter (one function per filter, so memoised). */
function statusView(status: OrderStatusFilter): (orders: Kept<KeptOrder>) => OrderList {
  let view = byStatus.get(status);
  if (!view) {
    view = (orders) => {
      const base = {
        setAside: orders.setAside,
        syncedAt: orders.syncedAt,
        lastChanged: orders.lastChanged,
        checkedAt: orders.checkedAt,
      };
      if (status === 'any') return { ...base, rows: orders.rows };
      const rows: Order[] = [];
      const setAside: SetAsideRecord[] = [...orders.setAside];
      for (const order of orders.rows) {
        const now = orderStatusOf(order);
        if (now === status) rows.push(order);
        else if (now === undefined) setAside.push(unplaced(order));
      }
      return { ...base, rows, setAside };
    };
    byStatus.set(status, view);
  }
  return view;
}

/** Orders under one status filter: a view of the kept orders, never a read of its own. */
export const orderListQuery = (
  client: SlabdeskClient,
  queryClient: QueryClient,
  status: OrderStatusFilter,
) => ({ ...ordersQuery(client, queryClient), select: statusView(status) });

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

const openIds = (orders: Kept<KeptOrder>): string[] =>
  orders.rows.filter((order) => orderStatusOf(order) === 'open').map((order) => order.id);

/** The ids of open orders: a view of the kept orders, so the overview counts what Orders shows. */
export const openOrderIdsQuery = (client: SlabdeskClient, queryClient: QueryClient) => ({
  ...ordersQuery(client, queryClient),
  select: openIds,
});
