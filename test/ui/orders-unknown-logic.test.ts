import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTolerant, type Order } from '../../src/client';
import { Order as OrderSchema } from '../../src/client/schemas';
import { orderStatusOf } from '../../src/api/orders/order-queries';
import { awaitsShipment, shipQueue, shipmentWords } from '../../src/api/orders/shipment';
import { orderTimeline } from '../../src/features/orders/order-timeline';
import { moneyFigures } from '../../src/features/overview/overview-figures';
import { payoutsByMonth } from '../../src/features/payouts/payout-figures';
import { learnFeeRate } from '../../src/api/sales/fee-rate';
import { orderMoney } from '../../src/api/sales/order-money';
import { netSince, salesSeries, unplacedOrders } from '../../src/api/sales/sales-series';
import type { Harness } from '../support/sandbox-harness';
import { startDemo } from './support/demo';
import { readAll } from './support/read-all';

/**
 * The money figures, the ship queue and the order's lifecycle from orders whose server left a
 * field out: what is not shown is skipped and counted, or marked unknown, never read as a zero,
 * as "not cancelled" or as a stage not reached (issue 35, item 2).
 */
let harness: Harness;
let raw: Record<string, unknown>[];

beforeAll(async () => {
  const demo = await startDemo();
  harness = demo.harness;
  raw = await readAll(harness, demo.token, '/orders.json?status=any', 'orders');
});
afterAll(() => harness?.close());

/** The demo's orders read by the tolerant reader, after `change` (a copy) of each. */
function read(change: (order: Record<string, unknown>) => void): Order[] {
  return raw.map((order) => {
    const copy = structuredClone(order);
    change(copy);
    const result = readTolerant(OrderSchema, copy);
    if (!result.ok) throw new Error(result.issues.join('; '));
    return result.value;
  });
}

const without =
  (...paths: string[]) =>
  (order: Record<string, unknown>) => {
    for (const path of paths) {
      const [top, inner] = path.split('.') as [string, string | undefined];
      if (inner === undefined) delete order[top];
      else delete (order[top] as Record<string, unknown>)[inner];
    }
  };

describe('orders with fields not shown', () => {
  it('money: a missing amount is undefined, left out of every sum and counted', () => {
    const whole = read(() => {});
    const paidCount = whole.filter((o) => o.svc_payout?.status === 'paid').length;
    expect(paidCount).toBeGreaterThan(0);
    const noFee = read(without('svc_payout.platform_fee'));
    for (const order of noFee) {
      // A cancelled order pays no fee, whatever it names; any other's fee is not known.
      if (order.cancelled_at) expect(orderMoney(order).feeCents).toBe(0);
      else expect(orderMoney(order).feeCents).toBeUndefined();
      // A paid payout shows its own amount; a pending one cannot be figured without the fee.
      if (order.svc_payout?.status !== 'paid' && !order.cancelled_at)
        expect(orderMoney(order).netCents).toBeUndefined();
    }
    expect(learnFeeRate(noFee)).toBeUndefined();
    const now = Date.now();
    const month = netSince(noFee, now - 30 * 86_400_000);
    expect(month.unknown).toBeGreaterThan(0);
    const figures = moneyFigures(noFee, now);
    expect(figures.pending.cents).toBe(0);
    expect(figures.pending.unknown).toBe(figures.pending.count);
    const series = salesSeries(noFee, 'month', now);
    const counted = series.reduce((n, point) => n + point.incomplete, 0);
    expect(counted).toBeGreaterThan(0);
    expect(series.every((point) => point.feesCents === 0)).toBe(true);
    const months = payoutsByMonth(noFee, () => undefined);
    const placed = whole.filter(
      (o) => o.cancelled_at === null && o.svc_payout?.status === 'paid' && o.svc_payout.paid_at,
    ).length;
    expect(months.reduce((n, m) => n + m.incomplete, 0)).toBe(placed);
  });

  it('a sale time or a cancellation not shown: the order is placed nowhere, and said to be', () => {
    const now = Date.now();
    const noSoldAt = read(without('svc_sold_at'));
    expect(unplacedOrders(noSoldAt)).toBe(raw.length);
    expect(salesSeries(noSoldAt, 'month', now).every((p) => p.salesCents === 0)).toBe(true);
    const noCancel = read(without('cancelled_at'));
    for (const order of noCancel) {
      expect(orderStatusOf(order)).toBeUndefined();
      expect(awaitsShipment(order)).toBe(false);
    }
    expect(shipQueue(noCancel)).toHaveLength(0);
    expect(netSince(noCancel, 0)).toMatchObject({ cents: 0, count: 0, unknown: raw.length });
  });

  it('the lifecycle: a stage whose fields are not shown is unknown, never not yet', () => {
    const orders = read(without('svc_authentication', 'svc_payout.status', 'svc_payout.paid_at'));
    for (const order of orders) {
      const steps = Object.fromEntries(orderTimeline(order).map((s) => [s.id, s]));
      expect(steps.authenticated!.done).toBeUndefined();
      expect(steps.paid_out!.done).toBeUndefined();
      expect(steps.sold!.done).toBe(true);
    }
    const noShipment = read(without('svc_seller_shipment'));
    expect(noShipment.every((o) => shipmentWords(o) === undefined)).toBe(true);
    expect(shipQueue(noShipment)).toHaveLength(0);
  });

  it('reads both ways: a timestamp left out until it happens is "not yet" by its status', () => {
    const orders = read((order) => {
      const shipment = order.svc_seller_shipment as Record<string, unknown>;
      for (const key of ['shipped_at', 'delivered_to_hub_at']) {
        if (shipment[key] === null) delete shipment[key];
      }
    });
    const unshipped = orders.filter((o) => o.svc_seller_shipment?.status === 'pending_shipment');
    expect(unshipped.length).toBeGreaterThan(0);
    for (const order of unshipped) {
      const steps = Object.fromEntries(orderTimeline(order).map((s) => [s.id, s]));
      expect(steps.shipped_to_hub!.done).toBe(false);
      expect(steps.delivered_to_hub!.done).toBe(false);
      expect(order.unreadable ?? []).toEqual([]);
    }
  });
});
