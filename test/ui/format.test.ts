import { describe, expect, it } from 'vitest';
import { freshnessText } from '../../src/components/freshness';
import { periodLabel } from '../../src/features/insights/period-label';
import {
  countOf,
  plural,
  formatDateTime,
  formatMoney,
  formatUtcMonth,
  relativeTime,
  unitsFromNow,
} from '../../src/lib/format';

/**
 * The helpers' words, held to what Intl writes for en-US (the test's locale) over instants across
 * years, months, hours and both halves of the day.
 */

/** Intl's spaces before AM/PM are narrow no-break ones in newer ICU: compared as plain spaces. */
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

const instants = Array.from({ length: 400 }, (_, i) =>
  new Date(Date.UTC(2019, 0, 1) + i * 7_919_999_983).toISOString(),
);

describe('dates, money and durations as Intl writes them', () => {
  it('writes an instant as Intl.DateTimeFormat does, in the local time zone', () => {
    const intl = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    });
    for (const iso of instants) {
      expect(formatDateTime(iso), iso).toBe(intl.format(Date.parse(iso)));
    }
    // Midnight and noon are 12, not 0.
    const midnight = new Date(2026, 10, 24, 0, 5).toISOString();
    expect(plain(formatDateTime(midnight))).toBe('Nov 24, 2026, 12:05 AM');
    expect(plain(formatDateTime(new Date(2026, 10, 24, 12, 0).toISOString()))).toBe(
      'Nov 24, 2026, 12:00 PM',
    );
    expect(formatDateTime(undefined)).toBe('—');
    expect(formatDateTime('not a date')).toBe('not a date');
  });

  it('writes money as Intl.NumberFormat does', () => {
    const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    const amounts = [
      0,
      -0,
      5,
      -5,
      0.005,
      1.005,
      1.115,
      -0.001,
      0.1 + 0.2,
      999.995,
      1e11 + 0.5,
      2e12,
    ];
    let seed = 7;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    for (let i = 0; i < 3000; i++) {
      const magnitude = 10 ** Math.floor(next() * 9);
      amounts.push(Math.round((next() - 0.3) * magnitude * 1000) / 1000);
    }
    for (const value of amounts) {
      const text = String(value);
      // Read from its digits: what the API would never write (3 decimals, past a trillion dollars)
      // is shown as sent.
      const amount = /^-?\d+(\.\d{1,2})?$/.test(text) && Math.abs(value) <= 1e12;
      expect(formatMoney(text), text).toBe(amount ? usd.format(Number(text)) : text);
    }
    expect(formatMoney('17.00')).toBe('$17.00');
    expect(formatMoney('-0')).toBe('$0.00');
    expect(formatMoney('-12.5')).toBe('-$12.50');
    expect(formatMoney('1234567.8')).toBe('$1,234,567.80');
    expect(formatMoney('')).toBe('—');
    expect(formatMoney('n/a')).toBe('n/a');
  });

  it('names UTC days and months as Intl does', () => {
    const day = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    });
    const month = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
    const longMonth = new Intl.DateTimeFormat('en-US', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    for (const iso of instants) {
      const at = Date.parse(iso);
      expect(periodLabel(iso, 'day')).toBe(day.format(at));
      expect(periodLabel(iso, 'week')).toBe(`Week of ${day.format(at)}`);
      expect(periodLabel(iso, 'month')).toBe(month.format(at));
      expect(formatUtcMonth(at, true)).toBe(longMonth.format(at));
    }
  });

  it('words a duration as Intl.RelativeTimeFormat does, long and short', () => {
    const long = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
    const short = new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'short' });
    const units = ['day', 'hour', 'minute', 'second'] as const;
    for (const unit of units) {
      for (const value of [-2000, -120, -59, -2, -1, 0, 1, 2, 3, 45, 1234]) {
        expect(unitsFromNow(value, unit), `${value} ${unit}`).toBe(long.format(value, unit));
        expect(unitsFromNow(value, unit, true), `${value} ${unit} short`).toBe(
          short.format(value, unit),
        );
      }
    }
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(relativeTime('2026-11-27T12:00:00Z', now)).toBe('in 3 days');
    expect(relativeTime('2026-11-25T12:00:00Z', now)).toBe('tomorrow');
    expect(relativeTime('2026-11-24T10:00:00Z', now)).toBe('2 hours ago');
    expect(relativeTime('2026-11-24T12:00:20Z', now)).toBe('in 20 seconds');
    expect(freshnessText(now - 5 * 60_000, now)).toBe('Updated 5 min. ago');
    expect(freshnessText(now - 3 * 3_600_000, now)).toBe('Updated 3 hr. ago');
    expect(freshnessText(now - 30 * 3_600_000, now)).toBe('Updated yesterday');
    expect(freshnessText(now - 10_000, now)).toBe('Updated just now');
  });
});

describe('plurals', () => {
  it('choose the noun as Intl.PluralRules does for en-US, for every whole count', () => {
    const rules = new Intl.PluralRules('en-US');
    for (let count = 0; count <= 1200; count += 1) {
      expect(plural(count, 'listing')).toBe(rules.select(count) === 'one' ? 'listing' : 'listings');
    }
    expect(countOf(1, 'conflict')).toBe('1 conflict');
    expect(countOf(414, 'listing')).toBe('414 listings');
    expect(countOf(1204, 'cell')).toBe('1,204 cells');
    expect(countOf(2, 'bad cell')).toBe('2 bad cells');
  });
});
