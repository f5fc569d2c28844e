import type { OrderFacts as Order } from './sales-queries';
import { DAY_MS, sumKnown } from './money';
import { isCounted, orderMoney } from './order-money';

export type Granularity = 'day' | 'week' | 'month';

/** How many periods each chart shows, the current one last. */
export const PERIODS: Record<Granularity, number> = { day: 30, week: 12, month: 12 };

export interface SalesPoint {
  /** The period's first instant (UTC), ISO. */
  start: string;
  /** Sum of `subtotal_price` of the orders sold in the period (cancelled ones left out). */
  salesCents: number;
  /** Orders sold (one line item each; a lot counts once). */
  units: number;
  /** Sum of `svc_payout.platform_fee`. */
  feesCents: number;
  /** Sum of each order's net: its paid payout, else sale − fee − refunds. */
  netCents: number;
  /** Orders of the period with an amount or quantity not known: left out of that sum only. */
  incomplete: number;
}

/** The start (UTC) of the period holding `at`: a day, a week from Monday, or a month. */
export function periodStart(at: number, granularity: Granularity): number {
  const date = new Date(at);
  const day = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  if (granularity === 'day') return day;
  if (granularity === 'week') return day - ((date.getUTCDay() + 6) % 7) * DAY_MS;
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

function previousStart(start: number, granularity: Granularity): number {
  if (granularity === 'day') return start - DAY_MS;
  if (granularity === 'week') return start - 7 * DAY_MS;
  const date = new Date(start);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1);
}

/** Sales, units, fees and net per UTC period by `svc_sold_at`, oldest first, empty ones zero. */
export function salesSeries(
  orders: readonly Order[],
  granularity: Granularity,
  now: number,
): SalesPoint[] {
  const starts: number[] = [periodStart(now, granularity)];
  while (starts.length < PERIODS[granularity]) {
    starts.unshift(previousStart(starts[0]!, granularity));
  }
  const points = new Map<number, SalesPoint>(
    starts.map((start) => [
      start,
      {
        start: new Date(start).toISOString(),
        salesCents: 0,
        units: 0,
        feesCents: 0,
        netCents: 0,
        incomplete: 0,
      },
    ]),
  );
  for (const order of orders) {
    const soldAt = soldAtOf(order);
    if (!isCounted(order) || soldAt === undefined) continue;
    const point = points.get(periodStart(soldAt, granularity));
    if (!point) continue;
    const money = orderMoney(order);
    const quantity = order.line_items?.[0]?.quantity;
    const known = [money.saleCents, quantity, money.feeCents, money.netCents];
    if (known.includes(undefined)) point.incomplete++;
    point.salesCents += money.saleCents ?? 0;
    point.units += quantity ?? 0;
    point.feesCents += money.feeCents ?? 0;
    point.netCents += money.netCents ?? 0;
  }
  return [...points.values()];
}

/** The order's sale time in ms, when its `svc_sold_at` was shown and readable. */
export function soldAtOf(order: Pick<Order, 'svc_sold_at'>): number | undefined {
  const at = order.svc_sold_at === undefined ? Number.NaN : Date.parse(order.svc_sold_at);
  return Number.isNaN(at) ? undefined : at;
}

/** Orders no period can hold (sale time or cancellation unknown), counted so the page says so. */
export function unplacedOrders(orders: readonly Order[]): number {
  return orders.filter((order) => order.cancelled_at === undefined || soldAtOf(order) === undefined)
    .length;
}

/** Net of the orders sold since `since`: the known sum, and in `unknown` those not known. */
export function netSince(
  orders: readonly Order[],
  since: number,
): { cents: number; count: number; unknown: number } {
  let unplaced = 0;
  const nets: (number | undefined)[] = [];
  for (const order of orders) {
    const soldAt = soldAtOf(order);
    if (order.cancelled_at === undefined || soldAt === undefined) unplaced++;
    else if (isCounted(order) && soldAt >= since) nets.push(orderMoney(order).netCents);
  }
  const { cents, unknown } = sumKnown(nets);
  return { cents, count: nets.length, unknown: unplaced + unknown };
}
