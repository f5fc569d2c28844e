import type { Order } from '../../client';
import { compareCodes } from '../../lib/compare-codes';

/** How the orders table can be sorted; `deadline` puts what must ship first on top. */
export const ORDER_SORTS = ['deadline', 'sold', 'total'] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];

/** True while the seller still has to ship the card to the hub. */
export const awaitsShipment = (order: Order) =>
  order.svc_seller_shipment.status === 'pending_shipment' && !order.cancelled_at;

function deadlineOf(order: Order): number {
  if (!awaitsShipment(order)) return Number.POSITIVE_INFINITY;
  const at = Date.parse(order.svc_seller_shipment.ship_by ?? '');
  return Number.isNaN(at) ? Number.MAX_VALUE : at;
}

const compare: Record<OrderSort, (a: Order, b: Order) => number> = {
  // Orders to ship, soonest deadline first; then the rest, newest sale first.
  deadline: (a, b) => deadlineOf(a) - deadlineOf(b) || compareCodes(b.svc_sold_at, a.svc_sold_at),
  sold: (a, b) => compareCodes(a.svc_sold_at, b.svc_sold_at),
  total: (a, b) => Number(a.total_price) - Number(b.total_price),
};

/** The orders in the chosen order (a new array). */
export function sortOrders(
  orders: readonly Order[],
  sort: OrderSort,
  direction: 'asc' | 'desc' = 'asc',
): Order[] {
  const sign = direction === 'desc' ? -1 : 1;
  return [...orders].sort((a, b) => sign * compare[sort](a, b));
}

/** The seller's leg to the hub in words: it is never the buyer's delivery. */
export function shipmentWords(order: Order): string {
  const status = order.svc_seller_shipment.status;
  if (status === 'delivered') return 'Delivered to the hub';
  if (status === 'pending_shipment') return order.cancelled_at ? 'Not shipped' : 'To ship';
  if (/transit|shipped/.test(status)) return 'On its way to the hub';
  return `${status.replace(/_/g, ' ')} (to the hub)`;
}
