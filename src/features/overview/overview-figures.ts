import type {
  ListingFacts as ListingRead,
  OrderFacts as Order,
} from '../../api/sales/sales-queries';
import { DAY_MS, sumKnown } from '../../api/sales/money';
import { isCounted, isRefundedAway, orderMoney } from '../../api/sales/order-money';
import { netSince } from '../../api/sales/sales-series';
import { compareCodes } from '../../api/compare-codes';

/** The start of today in UTC: the overview's days are UTC days, as the insights page's are. */
export const startOfUtcDay = (now: number) => now - (now % DAY_MS);

/** Money at a glance (cancelled left out): known amounts summed; `unknown` counts the rest. */
export function moneyFigures(orders: readonly Order[], now: number) {
  const waiting = orders.filter((o) => isCounted(o) && o.svc_payout?.status === 'pending');
  // A sale refunded in full has nothing left to pay out: said in a line, never listed at $0.00.
  const pending = waiting.filter((o) => !isRefundedAway(o));
  const paid = orders.filter((o) => isCounted(o) && o.svc_payout?.status === 'paid');
  const payoutUnknown = orders.filter(
    (o) => o.cancelled_at === undefined || (isCounted(o) && o.svc_payout?.status === undefined),
  ).length;
  const monthAgo = now - 30 * DAY_MS;
  const paidRecently = paid.filter(
    (o) => o.svc_payout?.paid_at && Date.parse(o.svc_payout.paid_at) >= monthAgo,
  );
  const sum = (list: readonly Order[]) => {
    const known = sumKnown(list.map((o) => orderMoney(o).netCents));
    return { count: list.length, cents: known.cents, unknown: known.unknown + payoutUnknown };
  };
  return {
    today: netSince(orders, startOfUtcDay(now)),
    week: netSince(orders, now - 7 * DAY_MS),
    month: netSince(orders, now - 30 * DAY_MS),
    pending: sum(pending),
    paid30: sum(paidRecently),
    /** Pending payouts, the oldest sale first (a sale time not shown last): the next released. */
    refundedAway: waiting.length - pending.length,
    nextPayouts: [...pending]
      .sort((a, b) => compareCodes(a.svc_sold_at ?? '\uffff', b.svc_sold_at ?? '\uffff'))
      .slice(0, 5),
  };
}

/** Live listings whose window ends within `days`, soonest first; `shown` false when none has it. */
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
