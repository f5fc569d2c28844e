import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Order } from '../../src/client/schemas';
import { ordersCsv, ORDER_CSV_COLUMNS } from '../../src/features/orders/orders-csv';
import { code128Modules, code128Values, CODE128_WIDTHS } from '../../src/lib/code128';
import { parseDelimited } from '../../src/features/listings/bulk-edit/logic/csv-reader';
import { estimateMargin } from '../../src/api/sales/margin';
import type { Harness } from '../support/sandbox-harness';
import { startDemo } from './support/demo';
import { readAll } from './support/read-all';

describe('Code 128 B', () => {
  it('has 107 distinct symbols of 11 modules (stop 13), three bars of even total width', () => {
    expect(CODE128_WIDTHS).toHaveLength(107);
    expect(new Set(CODE128_WIDTHS).size).toBe(107);
    CODE128_WIDTHS.forEach((widths, value) => {
      const w = [...widths].map(Number);
      expect(w.every((x) => x >= 1 && x <= 4)).toBe(true);
      expect(w.reduce((a, b) => a + b, 0)).toBe(value === 106 ? 13 : 11);
      // Code 128's parity: the bars of every data and start symbol add up to an even width.
      if (value < 106) expect((w[0]! + w[2]! + w[4]!) % 2).toBe(0);
    });
  });

  it('encodes start B, the characters, the mod-103 checksum and stop', () => {
    const text = 'SL-7K2Q9D';
    const values = code128Values(text);
    const data = [...text].map((ch) => ch.charCodeAt(0) - 32);
    const checksum = (104 + data.reduce((sum, v, i) => sum + v * (i + 1), 0)) % 103;
    expect(values).toEqual([104, ...data, checksum, 106]);
    const modules = code128Modules(text);
    expect(modules.startsWith('11010010000')).toBe(true); // start B
    expect(modules.endsWith('1100011101011')).toBe(true); // stop
    expect(modules).toHaveLength(11 * (text.length + 2) + 13);
    expect(() => code128Values('é')).toThrow(RangeError);
  });
});

describe('margin', () => {
  it('floors at break-even: the lowest price whose net covers the cost', () => {
    const rate = { basisPoints: 1200, from: 1 };
    const { breakEvenCents } = estimateMargin('10.00', rate, '50.00', false);
    expect(
      estimateMargin(breakEvenCents! / 100, rate, '50.00', false).marginCents,
    ).toBeGreaterThanOrEqual(0);
    expect(
      estimateMargin((breakEvenCents! - 1) / 100, rate, '50.00', false).marginCents,
    ).toBeLessThan(0);
    // Promoted (only when known) pays 3% more.
    expect(estimateMargin('100.00', rate, '50.00', true).feeCents).toBe(1500);
    expect(estimateMargin('100.00', rate, '50.00', undefined).feeCents).toBe(1200);
  });
});

describe('the orders CSV', () => {
  let harness: Harness;
  let token: string;
  beforeAll(async () => {
    ({ harness, token } = await startDemo());
  });
  afterAll(() => harness?.close());

  it('has one row per order with sale, tax, fee, refunds, payout and cost, formula-safe', async () => {
    const raw = await readAll<unknown>(harness, token, '/orders.json?status=any', 'orders');
    const orders = raw.map((r) => Order.parse(r));
    const paid = orders.find((o) => o.svc_payout.status === 'paid')!;
    const hostile = structuredClone(paid);
    hostile.line_items[0]!.title = '=HYPERLINK("https://evil.example","x")';
    const csv = ordersCsv([hostile, ...orders.slice(0, 3)], (id) =>
      id === paid.line_items[0]!.inventory_item_id ? '40.00' : undefined,
    );
    const [header, first, ...rest] = parseDelimited(csv, ',');
    expect(header).toEqual([...ORDER_CSV_COLUMNS]);
    expect(rest.filter((r) => r.length > 1)).toHaveLength(3);
    const cell = (name: (typeof ORDER_CSV_COLUMNS)[number]) => first![header!.indexOf(name)];
    expect(cell('card')).toBe(`'=HYPERLINK("https://evil.example","x")`);
    expect(cell('order_code')).toBe(paid.name);
    expect(cell('sale')).toBe(paid.subtotal_price);
    expect(cell('tax')).toBe(paid.total_tax);
    expect(cell('platform_fee')).toBe(paid.svc_payout.platform_fee);
    expect(cell('payout')).toBe(paid.svc_payout.amount);
    expect(cell('cost')).toBe('40.00');
    // Dates in the seller's zone and statuses in words, never ISO or codes.
    expect(cell('sold_at')).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4} \d{1,2}:\d{2} [AP]M$/);
    expect(cell('payout_status')).toBe('Paid');
    expect(cell('realised_margin')).toBe(
      ((Math.round(Number(paid.svc_payout.amount) * 100) - 4000) / 100).toFixed(2),
    );
  });
});
