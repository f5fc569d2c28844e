import type {
  ListingFacts as ListingRead,
  OrderFacts as Order,
} from '../../lib/sales/sales-queries';
import { DAY_MS } from '../../lib/sales/money';
import { awaitsShipment, isCounted, orderMoney } from '../../lib/sales/order-money';
import { netSince } from '../../lib/sales/sales-series';
import { compareCodes } from '../../lib/compare-codes';

/** The start of today in UTC: the overview's days are UTC days, as the insights page's are. */
export const startOfUtcDay = (now: number) => now - (now % DAY_MS);

/** Money at a glance, from the orders' documented fields (cancelled orders left out). */
export function moneyFigures(orders: readonly Order[], now: number) {
  const pending = orders.filter((o) => isCounted(o) && o.svc_payout.status === 'pending');
  const paid = orders.filter((o) => isCounted(o) && o.svc_payout.status === 'paid');
  const monthAgo = now - 30 * DAY_MS;
  const paidRecently = paid.filter(
    (o) => o.svc_payout.paid_at && Date.parse(o.svc_payout.paid_at) >= monthAgo,
  );
  const sum = (list: readonly Order[]) =>
    list.reduce((cents, o) => cents + orderMoney(o).netCents, 0);
  return {
    today: netSince(orders, startOfUtcDay(now)),
    week: netSince(orders, now - 7 * DAY_MS),
    month: netSince(orders, now - 30 * DAY_MS),
    pending: { count: pending.length, cents: sum(pending) },
    paid30: { count: paidRecently.length, cents: sum(paidRecently) },
    /** Pending payouts, the oldest sale first: the next to be released. */
    nextPayouts: [...pending]
      .sort((a, b) => compareCodes(a.svc_sold_at, b.svc_sold_at))
      .slice(0, 5),
  };
}

/** Orders to ship to the hub, the soonest `ship_by` first (no deadline last). */
export function shipQueue(orders: readonly Order[]): Order[] {
  return orders
    .filter(awaitsShipment)
    .sort((a, b) =>
      compareCodes(
        a.svc_seller_shipment.ship_by ?? '\uffff',
        b.svc_seller_shipment.ship_by ?? '\uffff',
      ),
    );
}

/**
 * Live listings whose window ends within `days`, soonest first: only where the server shows the
 * window (`window_ends_at` is not documented on reads). `shown` is false when no listing has it.
 */
export function windowsEndingSoon(listings: readonly ListingRead[], now: number, days = 3) {
  const live = listings.filter((l) => l.status === 'active');
  const shown = live.some((l) => typeof l.window_ends_at === 'string');
  const soon = live
    .filter(
      (l): l is ListingRead & { window_ends_at: string } => typeof l.window_ends_at === 'string',
    )
    .filter((l) => Date.parse(l.window_ends_at) - now <= days * DAY_MS)
    .sort((a, b) => compareCodes(a.window_ends_at, b.window_ends_at));
  return { shown, soon, live: live.length };
}
