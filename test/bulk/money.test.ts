import { describe, expect, it } from 'vitest';
import { parseAmount, parsePrice } from '../../src/client/listing-rules';
import { formatCents } from '../../src/shared/money';
import { adjustPrice, minimumOfferFromPercent, parsePercent } from '../../src/shared/price-math';

const cents = (text: string) => {
  const parsed = parseAmount(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
};
const pct = (text: string) => {
  const parsed = parsePercent(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
};

describe('amounts', () => {
  it('parses the forms a seller types or pastes, exactly', () => {
    expect(parseAmount('125')).toEqual({ ok: true, value: 12500n });
    expect(parseAmount('125.5')).toEqual({ ok: true, value: 12550n });
    expect(parseAmount(' 125.05 ')).toEqual({ ok: true, value: 12505n });
    expect(parseAmount('$1,250.99')).toEqual({ ok: true, value: 125099n });
    expect(parseAmount('0.1')).toEqual({ ok: true, value: 10n });
    // 0.1 + 0.2 in floats is 0.30000000000000004; in cents it is 30.
    expect(formatCents(cents('0.1') + cents('0.2'))).toBe('0.30');
  });

  it('refuses more than two decimals, signs and other text with a message', () => {
    expect(parseAmount('12.345')).toEqual({ ok: false, message: 'must have at most 2 decimals' });
    expect(parseAmount('-5')).toMatchObject({ ok: false });
    expect(parseAmount('12,34')).toMatchObject({ ok: false });
    expect(parseAmount('abc')).toMatchObject({ ok: false });
    expect(parseAmount('')).toEqual({ ok: false, message: 'enter an amount' });
  });

  it('bounds prices to 10 through 1,000,000', () => {
    expect(parsePrice('9.99')).toEqual({ ok: false, message: 'must be at least 10.00' });
    expect(parsePrice('10')).toEqual({ ok: true, value: 1000n });
    expect(parsePrice('1000000.00')).toEqual({ ok: true, value: 100_000_000n });
    expect(parsePrice('1000000.01')).toEqual({
      ok: false,
      message: 'must be at most 1,000,000.00',
    });
  });

  it('formats cents for the API and for people', () => {
    expect(formatCents(5n)).toBe('0.05');
    expect(formatCents(100_000_000n)).toBe('1000000.00');
  });

  it('parses percentages to hundredths with at most two decimals', () => {
    expect(parsePercent('10')).toEqual({ ok: true, value: 1000n });
    expect(parsePercent('12.5%')).toEqual({ ok: true, value: 1250n });
    expect(parsePercent('7.25')).toEqual({ ok: true, value: 725n });
    expect(parsePercent('7.255')).toEqual({ ok: false, message: 'must have at most 2 decimals' });
    expect(parsePercent('0')).toEqual({ ok: false, message: 'must be more than 0%' });
    expect(parsePercent('101')).toEqual({ ok: false, message: 'must be at most 100%' });
    expect(parsePercent('250', 1000)).toEqual({ ok: true, value: 25000n });
  });
});

describe('price changes', () => {
  it('lowers by a percentage, rounding half up to the cent and showing it', () => {
    const result = adjustPrice(cents('129.99'), {
      kind: 'percent',
      direction: 'lower',
      hundredths: pct('10'),
    });
    // 129.99 × 0.9 = 116.991 → 116.99
    expect(formatCents(result.cents)).toBe('116.99');
    expect(result.exact).toBe('116.991');
    expect(result.rounded).toBe(true);
    expect(result.explanation).toBe(
      '129.99 − 10% = 116.991 → 116.99 (rounded half up to the cent)',
    );
    expect(result.error).toBeNull();
  });

  it('rounds an exact half cent up', () => {
    // 123.45 × 0.9 = 111.105 → 111.11 (a float gives 111.10499999999999)
    const result = adjustPrice(cents('123.45'), {
      kind: 'percent',
      direction: 'lower',
      hundredths: pct('10'),
    });
    expect(result.exact).toBe('111.105');
    expect(formatCents(result.cents)).toBe('111.11');
    // 10.05 × 1.125 = 11.30625 → 11.31
    const raised = adjustPrice(cents('10.05'), {
      kind: 'percent',
      direction: 'raise',
      hundredths: pct('12.5'),
    });
    expect(raised.exact).toBe('11.30625');
    expect(formatCents(raised.cents)).toBe('11.31');
  });

  it('says when nothing was rounded', () => {
    const result = adjustPrice(cents('200'), {
      kind: 'percent',
      direction: 'lower',
      hundredths: pct('25'),
    });
    expect(formatCents(result.cents)).toBe('150.00');
    expect(result.rounded).toBe(false);
    expect(result.explanation).toBe('200.00 − 25% = 150.00');
  });

  it('raises and lowers by an amount, and sets a price', () => {
    expect(
      formatCents(
        adjustPrice(cents('99.99'), { kind: 'amount', direction: 'raise', cents: cents('0.02') })
          .cents,
      ),
    ).toBe('100.01');
    expect(
      formatCents(
        adjustPrice(cents('50'), { kind: 'amount', direction: 'lower', cents: cents('12.5') })
          .cents,
      ),
    ).toBe('37.50');
    expect(formatCents(adjustPrice(cents('50'), { kind: 'set', cents: cents('75') }).cents)).toBe(
      '75.00',
    );
  });

  it('flags a result outside 10 to 1,000,000 instead of clamping it', () => {
    expect(
      adjustPrice(cents('10.50'), { kind: 'percent', direction: 'lower', hundredths: pct('10') })
        .error,
    ).toBe('must be at least 10.00');
    expect(
      adjustPrice(cents('950000'), { kind: 'percent', direction: 'raise', hundredths: pct('10') })
        .error,
    ).toBe('must be at most 1,000,000.00');
    expect(
      adjustPrice(cents('20'), { kind: 'amount', direction: 'lower', cents: cents('30') }).error,
    ).toBe('must be at least 10.00');
  });

  it('sets a minimum offer as a percentage of the price', () => {
    const offer = minimumOfferFromPercent(cents('129.99'), pct('80'));
    // 129.99 × 0.8 = 103.992 → 103.99
    expect(formatCents(offer.cents)).toBe('103.99');
    expect(offer.rounded).toBe(true);
    expect(formatCents(minimumOfferFromPercent(cents('100.01'), pct('50')).cents)).toBe('50.01'); // 50.005 → 50.01
    expect(minimumOfferFromPercent(cents('100'), pct('100')).error).toBeNull();
  });
});
