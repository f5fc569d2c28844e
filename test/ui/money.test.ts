import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import * as zm from 'zod/mini';
import {
  centsOf,
  formatCents,
  formatDollars,
  MAX_CENTS,
  amountCheck,
  amountToCents,
  readCents,
} from '../../src/shared/money';

describe('the one money module', () => {
  it('reads the API’s decimal strings into whole cents from their digits', () => {
    expect(readCents('12.50')).toEqual({ ok: true, cents: 1250 });
    expect(readCents('12.5')).toEqual({ ok: true, cents: 1250 });
    expect(readCents('12')).toEqual({ ok: true, cents: 1200 });
    expect(readCents('  12.5 ')).toEqual({ ok: true, cents: 1250 });
    expect(readCents('0.07')).toEqual({ ok: true, cents: 7 });
    expect(readCents('007.10')).toEqual({ ok: true, cents: 710 });
    // The float of 19.99 is 19.989999…: read from the digits, it is 1999 cents exactly.
    expect(readCents('19.99')).toEqual({ ok: true, cents: 1999 });
    expect(readCents('1.005')).toEqual({ ok: false, problem: 'decimals' });
  });

  it('refuses what is not an amount, never rounding it', () => {
    expect(readCents('1e3')).toEqual({ ok: false, problem: 'malformed' });
    expect(readCents('-1')).toEqual({ ok: false, problem: 'malformed' });
    expect(readCents('+1')).toEqual({ ok: false, problem: 'malformed' });
    expect(readCents('12.345')).toEqual({ ok: false, problem: 'decimals' });
    expect(readCents('12.')).toEqual({ ok: false, problem: 'malformed' });
    expect(readCents('.5')).toEqual({ ok: false, problem: 'malformed' });
    expect(readCents('$12')).toEqual({ ok: false, problem: 'malformed' });
    expect(readCents('1,250')).toEqual({ ok: false, problem: 'malformed' });
    expect(readCents('0x10')).toEqual({ ok: false, problem: 'malformed' });
    expect(readCents('Infinity')).toEqual({ ok: false, problem: 'malformed' });
    expect(readCents('')).toEqual({ ok: false, problem: 'empty' });
    expect(readCents('   ')).toEqual({ ok: false, problem: 'empty' });
    expect(readCents(null)).toEqual({ ok: false, problem: 'empty' });
    expect(readCents({ amount: '1' })).toEqual({ ok: false, problem: 'malformed' });
    // Numbers as JavaScript writes them: the float sum 0.1 + 0.2 has 17 decimals.
    expect(readCents(0.1 + 0.2)).toEqual({ ok: false, problem: 'decimals' });
    expect(readCents(1e21)).toEqual({ ok: false, problem: 'malformed' });
    expect(readCents(12.5)).toEqual({ ok: true, cents: 1250 });
  });

  it('holds its bounds, and any bound a door gives', () => {
    expect(readCents('1000000000000.00')).toEqual({ ok: true, cents: MAX_CENTS });
    expect(readCents('1000000000000.01')).toEqual({ ok: false, problem: 'above' });
    expect(readCents('99999999999999999999')).toEqual({ ok: false, problem: 'above' });
    expect(readCents('0000000000000000012.00')).toEqual({ ok: true, cents: 1200 });
    expect(Number.isSafeInteger(MAX_CENTS)).toBe(true);
    expect(readCents('1000000.00', { max: 100_000_000 })).toEqual({ ok: true, cents: 100_000_000 });
    expect(readCents('1000000.01', { max: 100_000_000 })).toEqual({ ok: false, problem: 'above' });
  });

  it('takes a sign only when asked, and a typed amount’s $ and commas only when typed', () => {
    expect(readCents('-5.00', { signed: true })).toEqual({ ok: true, cents: -500 });
    expect(readCents('-0.00', { signed: true })).toEqual({ ok: true, cents: 0 });
    expect(readCents('$1,250.5', { typed: true })).toEqual({ ok: true, cents: 125050 });
    expect(readCents('$ 125', { typed: true })).toEqual({ ok: true, cents: 12500 });
    expect(readCents('12.', { typed: true })).toEqual({ ok: true, cents: 1200 });
    expect(readCents('12,50', { typed: true })).toEqual({ ok: false, problem: 'malformed' });
    expect(readCents('-1', { typed: true })).toEqual({ ok: false, problem: 'malformed' });
    expect(centsOf('abc')).toBeUndefined();
    expect(centsOf('3.10')).toBe(310);
  });

  it('writes cents as the API’s string and reads them back, for every cent of a range', () => {
    expect(formatCents(1250)).toBe('12.50');
    expect(formatCents(7)).toBe('0.07');
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(-500)).toBe('-5.00');
    expect(formatCents(12345n)).toBe('123.45');
    expect(formatCents(-1n)).toBe('-0.01');
    expect(formatCents(MAX_CENTS)).toBe('1000000000000.00');
    for (let cents = 0; cents <= 20_000; cents += 1) {
      expect(readCents(formatCents(cents))).toEqual({ ok: true, cents });
    }
  });

  it('sums prices times quantities exactly where floats drift', () => {
    const price = centsOf('19.99')!;
    for (const quantity of [1, 3, 7, 100, 1_000]) {
      expect(formatCents(price * quantity)).toBe(
        `${Math.floor((1999 * quantity) / 100)}.${String((1999 * quantity) % 100).padStart(2, '0')}`,
      );
    }
    expect(formatCents(price * 3)).toBe('59.97');
    // The float way loses a cent before the sum starts: 19.99 * 100 is 1998.9999999999998.
    expect(Math.trunc(19.99 * 100)).toBe(1998);
    expect(formatCents(centsOf('0.10')! + centsOf('0.20')!)).toBe('0.30');
  });

  it('writes cents as a seller reads them, exactly', () => {
    expect(formatDollars(125050)).toBe('$1,250.50');
    expect(formatDollars(-500)).toBe('-$5.00');
    expect(formatDollars(0n)).toBe('$0.00');
    expect(formatDollars(MAX_CENTS - 1)).toBe('$999,999,999,999.99');
  });

  it('gives every door one zod field over the same parser', () => {
    const Body = z.strictObject({
      price: z.string().transform(amountToCents({ max: 100_000_000, above: 'too big' })),
    });
    expect(Body.parse({ price: ' 19.99 ' })).toEqual({ price: 1999 });
    const refused = Body.safeParse({ price: '1000000.01' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues).toMatchObject([{ path: ['price'], message: 'too big' }]);
    expect(Body.safeParse({ price: '1e3' }).error?.issues).toMatchObject([
      { path: ['price'], message: 'must be an amount like 12.50' },
    ]);
    expect(Body.safeParse({ price: '12.345' }).error?.issues).toMatchObject([
      { path: ['price'], message: 'must have at most 2 decimals' },
    ]);
    const Kept = z.object({ floor: z.string().trim().superRefine(amountCheck()) });
    expect(Kept.parse({ floor: ' 12.5 ' })).toEqual({ floor: '12.5' });
    expect(Kept.safeParse({ floor: '-1' }).success).toBe(false);
    const Mini = zm.object({ floor: zm.string().check(zm.superRefine(amountCheck())) });
    expect(Mini.parse({ floor: '3.10' })).toEqual({ floor: '3.10' });
    expect(Mini.safeParse({ floor: '3.101' }).error?.issues).toMatchObject([
      { path: ['floor'], message: 'must have at most 2 decimals' },
    ]);
  });
});
