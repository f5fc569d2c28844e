import type { Order } from '../../client';
import { compareCodes } from '../../api/compare-codes';
import { centsOf, SIGNED } from '../../shared/money';
import { awaitsShipment } from '../../api/orders/shipment';

/** How the orders table can be sorted; `deadline` puts what must ship first on top. */
export const ORDER_SORTS = ['deadline', 'sold', 'total'] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];

function deadlineOf(order: Order): number {
  if (!awaitsShipment(order)) return Number.POSITIVE_INFINITY;
  const at = Date.parse(order.svc_seller_shipment?.ship_by ?? '');
  return Number.isNaN(at) ? Number.MAX_VALUE : at;
}

/** A value not shown sorts after the shown ones (before them when the order is reversed). */
const compareKnown = <T>(
  a: T | undefined,
  b: T | undefined,
  known: (a: T, b: T) => number,
): number => {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  return known(a, b);
};

const totalOf = (order: Order) => centsOf(order.total_price, SIGNED);

const compare: Record<OrderSort, (a: Order, b: Order) => number> = {
  // Orders to ship, soonest deadline first; then the rest, newest sale first.
  deadline: (a, b) =>
    deadlineOf(a) - deadlineOf(b) ||
    compareKnown(a.svc_sold_at, b.svc_sold_at, (x, y) => compareCodes(y, x)),
  sold: (a, b) => compareKnown(a.svc_sold_at, b.svc_sold_at, compareCodes),
  total: (a, b) => compareKnown(totalOf(a), totalOf(b), (x, y) => x - y),
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
