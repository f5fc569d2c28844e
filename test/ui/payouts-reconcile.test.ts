import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Order } from '../../src/client/schemas';
import { payoutsByMonth } from '../../src/features/payouts/payout-figures';
import { isRefundedAway, orderMoney } from '../../src/api/sales/order-money';
import { owedCents, reconcile, reconciles } from '../../src/api/sales/reconcile';
import { costSet } from '../../src/api/inventory/inventory-queries';
import { moneyFigures } from '../../src/features/overview/overview-figures';
import type { OrderFacts } from '../../src/api/sales/sales-queries';
import type { Harness } from '../support/sandbox-harness';
import { startDemo } from './support/demo';
import { readAll } from './support/read-all';

const cents = (amount: string | null | undefined) => Math.round(Number(amount ?? 0) * 100);

/** Every month and the pending sum add up, each cause non-negative, and no unexplained rest. */
function expectAddsUp(orders: readonly Order[]) {
  const months = payoutsByMonth(orders, () => undefined);
  expect(months.length).toBeGreaterThan(0);
  for (const month of months) {
    expect(reconciles(month), month.month).toBe(true);
    expect(month.adjustmentCents, month.month).toBe(0);
    expect(month.refundedAfterPayoutCents).toBeGreaterThanOrEqual(0);
    expect(month.beyondSaleCents).toBeGreaterThanOrEqual(0);
  }
  // Paid out is the amounts the marketplace shows, summed independently here.
  const paid = orders.filter((o) => o.cancelled_at === null && o.svc_payout?.status === 'paid');
  expect(months.reduce((sum, m) => sum + m.payoutCents, 0)).toBe(
    paid.reduce((sum, o) => sum + cents(o.svc_payout?.amount), 0),
  );
  const pending = orders.filter(
    (o) => o.cancelled_at === null && o.svc_payout?.status === 'pending' && !isRefundedAway(o),
  );
  const pendingSum = reconcile(pending);
  expect(reconciles(pendingSum)).toBe(true);
  // Nothing pending is listed at $0.00 because it was refunded away.
  for (const order of pending) expect(order.financial_status).not.toBe('refunded');
  // A cancelled order, or one refunded to nothing, pays no fee.
  for (const order of orders) {
    const money = orderMoney(order);
    if (order.cancelled_at !== null) expect(money.feeCents).toBe(0);
    if (order.financial_status === 'refunded' && order.svc_payout?.status !== 'paid')
      expect(money.feeCents).toBe(0);
  }
  // The overview's "Next payouts" lists no refunded order at $0.00, and counts those it leaves out.
  const figures = moneyFigures(orders, Date.now());
  for (const next of figures.nextPayouts) expect(next.financial_status).not.toBe('refunded');
  expect(figures.refundedAway).toBe(
    orders.filter(
      (o) =>
        o.cancelled_at === null &&
        o.svc_payout?.status === 'pending' &&
        o.financial_status === 'refunded',
    ).length,
  );
  return { months, pendingSum };
}

const dollars = (value: number) => `$${(value / 100).toFixed(2)}`;

describe('payout figures on the demo store', () => {
  let harness: Harness;
  let token: string;
  beforeAll(async () => {
    ({ harness, token } = await startDemo());
  });
  afterAll(() => harness?.close());

  it('reconcile every month: sales − fees − refunds = paid out, or the difference by cause', async () => {
    const raw = await readAll<unknown>(harness, token, '/orders.json?status=any', 'orders');
    const { months, pendingSum } = expectAddsUp(raw.map((r) => Order.parse(r)));
    const latest = months[0]!;
    // The figures of the closing note.
    console.info(
      `demo ${latest.month}: sales ${dollars(latest.salesCents)} − fees ${dollars(latest.feesCents)} − refunds ${dollars(latest.refundedCents)} = ${dollars(owedCents(latest))}; paid out ${dollars(latest.payoutCents)}; refunded after payout ${dollars(latest.refundedAfterPayoutCents)}; beyond sale ${dollars(latest.beyondSaleCents)}; pending ${dollars(pendingSum.payoutCents)}`,
    );
  });

  it('reconcile on a store changed by generated sales, refunds, cancellations and payouts', async () => {
    const listings = (
      await readAll<{ id: string; unavailable_reason: string | null }>(
        harness,
        token,
        '/listings.json?status=active',
        'listings',
      )
    ).filter((l) => l.unavailable_reason === null);
    // Each scenario: how far the order moves, and a refund or cancel at some stage.
    const scenario = fc.record({
      stages: fc.integer({ min: 0, max: 6 }),
      event: fc.constantFrom('none', 'cancel', 'refund_full', 'refund_part'),
      at: fc.integer({ min: 0, max: 6 }),
    });
    const plans = fc.sample(scenario, { seed: 42, numRuns: 24 });
    for (const [index, plan] of plans.entries()) {
      const listing = listings[index]!;
      const sold = await harness.control<{ order: { id: string } }>(
        'POST',
        `/listings/${listing.id}/sell`,
        {},
      );
      const id = sold.body.order.id;
      for (let stage = 0; stage <= plan.stages; stage++) {
        if (stage === plan.at && plan.event === 'cancel' && stage < 4)
          await harness.control('POST', `/orders/${id}/cancel`, { reason: 'buyer' });
        if (stage === plan.at && plan.event === 'refund_full')
          await harness.control('POST', `/orders/${id}/refund`, {});
        if (stage === plan.at && plan.event === 'refund_part')
          await harness.control('POST', `/orders/${id}/refund`, { amount: '12.50' });
        if (stage < plan.stages) await harness.control('POST', `/orders/${id}/advance`, {});
      }
    }
    const raw = await readAll<unknown>(harness, token, '/orders.json?status=any', 'orders');
    expectAddsUp(raw.map((r) => Order.parse(r)));
  });
});

describe('payout figures on generated orders', () => {
  /** An order as the marketplace's rules make it: refunds before or after the payout. */
  const order = fc
    .record({
      sale: fc.integer({ min: 1000, max: 500_000 }),
      feeBp: fc.constantFrom(1200, 1500),
      refundBefore: fc.integer({ min: 0, max: 600_000 }),
      refundAfter: fc.integer({ min: 0, max: 600_000 }),
      paid: fc.boolean(),
    })
    .map(({ sale, feeBp, refundBefore, refundAfter, paid }): OrderFacts => {
      const total = sale + Math.round(sale * 0.08);
      const before = Math.min(refundBefore, total);
      const after = paid ? Math.min(refundAfter, total - before) : 0;
      const fee = Math.round((sale * feeBp) / 10_000);
      const amount = Math.max(0, sale - fee - before);
      const refunded = before + after;
      const money = (c: number) => (c / 100).toFixed(2);
      return {
        id: 'o',
        name: 'SL-AAAAAA',
        created_at: '2026-11-01T00:00:00Z',
        closed_at: null,
        cancelled_at: null,
        financial_status:
          refunded >= total ? 'refunded' : refunded > 0 ? 'partially_refunded' : 'paid',
        subtotal_price: money(sale),
        total_tax: money(total - sale),
        total_refunded: money(refunded),
        line_items: [],
        svc_sold_at: '2026-11-01T00:00:00Z',
        svc_seller_shipment: undefined,
        svc_payout: {
          status: paid ? 'paid' : 'pending',
          amount: paid ? money(amount) : null,
          platform_fee: money(fee),
          paid_at: paid ? '2026-11-20T00:00:00Z' : null,
        },
      } as unknown as OrderFacts;
    });

  it('explain every difference by a cause the orders show (no unexplained adjustment)', () => {
    fc.assert(
      fc.property(fc.array(order, { maxLength: 30 }), (orders) => {
        const sum = reconcile(orders);
        expect(reconciles(sum)).toBe(true);
        expect(sum.adjustmentCents).toBe(0);
      }),
    );
  });

  it('reads a cost of zero or nothing as not set', () => {
    expect(costSet('0.00')).toBeUndefined();
    expect(costSet(undefined)).toBeUndefined();
    expect(costSet('')).toBeUndefined();
    expect(costSet('12.50')).toBe('12.50');
  });
});
