import { describe, expect, it } from 'vitest';
import { formatFullDate, formatShortDate } from '../../src/lib/format';

/** Intl's spaces before AM/PM are narrow no-break ones in newer ICU: compared as plain spaces. */
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

const NOW = Date.parse('2026-11-26T22:00:00Z');
const inZone = (timeZone: string) => ({ now: NOW, locale: 'en-US', timeZone });

describe('short dates for tables, in the seller’s locale and zone', () => {
  it('leaves out this year and gives the year of another', () => {
    expect(formatShortDate('2026-11-27T10:00:00Z', inZone('UTC'))).toBe('Nov 27');
    expect(formatShortDate('2025-08-03T07:11:00Z', inZone('UTC'))).toBe('Aug 3, 2025');
    expect(formatShortDate('2027-01-02T07:11:00Z', inZone('UTC'))).toBe('Jan 2, 2027');
  });

  it('gives the time only when asked', () => {
    expect(plain(formatShortDate('2026-11-27T10:00:00Z', { ...inZone('UTC'), time: true }))).toBe(
      'Nov 27, 10:00 AM',
    );
    expect(plain(formatShortDate('2025-11-27T15:05:00Z', { ...inZone('UTC'), time: true }))).toBe(
      'Nov 27, 2025, 3:05 PM',
    );
  });

  it('reads the day, and "this year", in the seller’s zone', () => {
    // 02:00 UTC on Jan 1 is still Dec 31 of the year before in New York.
    const newYear = '2027-01-01T02:00:00Z';
    expect(formatShortDate(newYear, inZone('UTC'))).toBe('Jan 1, 2027');
    expect(formatShortDate(newYear, inZone('America/New_York'))).toBe('Dec 31');
    expect(formatShortDate('2026-11-27T23:30:00Z', inZone('Asia/Tokyo'))).toBe('Nov 28');
  });

  it('writes the seller’s locale', () => {
    const german = { now: NOW, locale: 'de-DE', timeZone: 'Europe/Berlin' };
    expect(formatShortDate('2026-11-27T10:00:00Z', german)).toBe('27. Nov.');
    expect(formatShortDate('2025-11-27T10:00:00Z', german)).toBe('27. Nov. 2025');
  });

  it('matches what Intl writes for each instant', () => {
    const intl = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    });
    for (let i = 0; i < 200; i++) {
      const at = NOW - i * 86_400_000 * 1.37;
      const iso = new Date(at).toISOString();
      const expected =
        new Date(at).getUTCFullYear() === 2026
          ? intl.format(at)
          : `${intl.format(at)}, ${new Date(at).getUTCFullYear()}`;
      expect(formatShortDate(iso, inZone('UTC')), iso).toBe(expected);
    }
  });

  it('gives the whole date, zone named, for a hover and screen readers', () => {
    expect(plain(formatFullDate('2026-11-27T10:00:00Z', inZone('UTC')))).toBe(
      'Fri, November 27, 2026 at 10:00 AM UTC',
    );
    expect(plain(formatFullDate('2026-11-27T10:00:00Z', inZone('America/New_York')))).toMatch(
      /^Fri, November 27, 2026 at 5:00 AM (EST|GMT-5)$/,
    );
  });

  it('says a missing or unreadable date plainly', () => {
    expect(formatShortDate(null)).toBe('—');
    expect(formatShortDate('not a date')).toBe('not a date');
    expect(formatFullDate(undefined)).toBe('—');
  });
});
