import { queryOptions } from '@tanstack/react-query';
import type { SlabdeskClient } from '../../client';

/** The one query-key factory of the overview's counts. */
export const overviewKeys = {
  all: ['overview'] as const,
  listingCounts: () => [...overviewKeys.all, 'listing-counts'] as const,
  orderCounts: () => [...overviewKeys.all, 'order-counts'] as const,
};

/** Listing counts by status, from a walk that asks only for `id` and `status`. */
export const listingCountsQuery = (client: SlabdeskClient) =>
  queryOptions({
    queryKey: overviewKeys.listingCounts(),
    queryFn: async ({ signal }) => {
      const all = await client.listings.loadAll({ signal, fields: ['id', 'status'] });
      const byStatus: Record<string, number> = {};
      for (const row of all.rows) {
        const status = row.status ?? 'unknown';
        byStatus[status] = (byStatus[status] ?? 0) + 1;
      }
      return { total: all.rows.length, byStatus };
    },
  });

/** Orders that need the seller today: awaiting shipment (with ship_by) and payouts pending. */
export const orderCountsQuery = (client: SlabdeskClient) =>
  queryOptions({
    queryKey: overviewKeys.orderCounts(),
    refetchInterval: 15_000,
    queryFn: async ({ signal }) => {
      const [orders, openIds] = await Promise.all([
        client.orders.loadAll({ signal, status: 'any' }),
        // "Open" as the API's own filter means it (sold and in progress), so the count is the one
        // Orders → Open shows; a delivered order awaiting payout is not open there.
        client.orders.loadAll({ signal, status: 'open', fields: ['id'] }),
      ]);
      const openSet = new Set(openIds.rows.map((order) => order.id));
      const open = orders.rows.filter((order) => openSet.has(order.id));
      const awaitingShipment = open
        .filter((order) => order.svc_seller_shipment.status === 'pending_shipment')
        .sort((a, b) =>
          (a.svc_seller_shipment.ship_by ?? '').localeCompare(b.svc_seller_shipment.ship_by ?? ''),
        );
      const payoutsPending = orders.rows.filter(
        (order) => !order.cancelled_at && order.svc_payout.status === 'pending',
      );
      const pendingAmount = payoutsPending.reduce(
        (sum, order) => sum + Number(order.total_price) - Number(order.svc_payout.platform_fee),
        0,
      );
      return {
        total: orders.rows.length,
        open: open.length,
        awaitingShipment,
        payoutsPending: payoutsPending.length,
        pendingAmount: pendingAmount.toFixed(2),
      };
    },
  });
