/** Display helpers in the seller's locale and zone; each `Intl` object made once. */

import { centsOf, formatDollars } from '../shared/money';
import { codeWords } from './code-words';

const onFirstUse = <T>(make: () => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};

const wholeNumber = onFirstUse(() => new Intl.NumberFormat('en-US'));
// The nouns are English, so their plural rules are too.
const pluralRules = onFirstUse(() => new Intl.PluralRules('en-US'));

/** The noun for a count, chosen by `Intl.PluralRules`: "listing" for 1, "listings" otherwise. */
export function plural(count: number, one: string, other = `${one}s`): string {
  return pluralRules().select(count) === 'one' ? one : other;
}

/** "1 listing", "414 listings", "1,204 cells". */
export function countOf(count: number, one: string, other = `${one}s`): string {
  return `${wholeNumber().format(count)} ${plural(count, one, other)}`;
}

/** "$1,234.50", "-$5.00"; "—" when there is no amount, the text itself when it is not one. */
export function formatMoney(amount: string | null | undefined): string {
  if (amount === null || amount === undefined || amount === '') return '—';
  const cents = centsOf(amount, { signed: true });
  return cents === undefined ? amount : formatDollars(cents);
}

/** An instant in words by `write`: "—" when there is none, the text itself when it is not one. */
const dateWords = (iso: string | null | undefined, write: (at: number) => string): string => {
  const at = iso ? Date.parse(iso) : NaN;
  return !iso ? '—' : Number.isNaN(at) ? iso : write(at);
};

/** "Nov 24, 2026, 03:59 PM" (in en-US), in the seller's locale and time zone. */
export const formatDateTime = (iso: string | null | undefined): string =>
  dateWords(iso, (at) => {
    const shape = { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit' } as const;
    return dateFormat({}, { ...shape, minute: '2-digit' }).format(at);
  });

const UTC = { timeZone: 'UTC' };

/** "Nov 3" (a UTC day). */
export const formatUtcDay = (at: number) =>
  dateFormat(UTC, { month: 'short', day: 'numeric' }).format(at);

/** "Nov 2026" (a UTC month); `long`: "November 2026". */
export const formatUtcMonth = (at: number, long = false) =>
  dateFormat(UTC, { month: long ? 'long' : 'short', year: 'numeric' }).format(at);

/** A code in the seller's words: `deactivated_by_seller` → "Ended by you" (`lib/code-words.ts`). */
export function humanize(code: string | null | undefined): string {
  return code ? codeWords(code) : '—';
}

type TimeUnit = 'day' | 'hour' | 'minute' | 'second';

const relative = onFirstUse(() => new Intl.RelativeTimeFormat('en', { numeric: 'auto' }));
const relativeShort = onFirstUse(
  () => new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'short' }),
);

/** `value` units from now in words: "in 3 days", "2 hours ago", "tomorrow"; `short`: "5 min. ago". */
export function unitsFromNow(value: number, unit: TimeUnit, short = false): string {
  return (short ? relativeShort : relative)().format(value, unit);
}

/** A relative phrase for a deadline: "in 3 days", "2 hours ago". */
export function relativeTime(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '';
  const diff = Date.parse(iso) - now;
  const abs = Math.abs(diff);
  const units: [number, TimeUnit][] = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
  ];
  for (const [ms, unit] of units) {
    if (abs >= ms) return unitsFromNow(Math.round(diff / ms), unit);
  }
  return unitsFromNow(Math.round(diff / 1000), 'second');
}

/** Where and how a date is written: the seller's locale and time zone (the browser's by default). */
export interface DateContext {
  locale?: string | undefined;
  timeZone?: string | undefined;
  /** The instant "this year" is judged from. */
  now?: number | undefined;
}

/** One `Intl.DateTimeFormat` per locale, zone and shape, made on first use. */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(
  { locale, timeZone }: DateContext,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = JSON.stringify([locale ?? '', timeZone ?? '', options]);
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    dateFormats.set(key, format);
  }
  return format;
}

const yearIn = (at: number, context: DateContext) =>
  dateFormat(context, { year: 'numeric' }).format(at);

/** A table cell's date: "Nov 27", the year only when not this year, the time when asked. */
export function formatShortDate(
  iso: string | null | undefined,
  { time = false, ...context }: DateContext & { time?: boolean } = {},
): string {
  return dateWords(iso, (at) => {
    const otherYear = yearIn(at, context) !== yearIn(context.now ?? Date.now(), context);
    return dateFormat(context, {
      month: 'short',
      day: 'numeric',
      ...(otherYear ? { year: 'numeric' } : {}),
      ...(time ? { hour: 'numeric', minute: '2-digit' } : {}),
    }).format(at);
  });
}

/** The whole date, for a hover and for screen readers: "Fri, November 27, 2026, 10:00 AM EST". */
export function formatFullDate(iso: string | null | undefined, context: DateContext = {}): string {
  return dateWords(iso, (at) =>
    dateFormat(context, {
      weekday: 'short',
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    }).format(at),
  );
}

/** A time zone as a seller names it ("Eastern Time", "Central European Time"); the browser's by default. */
export function zoneWords(timeZone?: string): string {
  const parts = dateFormat({ timeZone }, { timeZoneName: 'longGeneric' }).formatToParts(Date.now());
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? timeZone ?? 'your time';
}

/** Makes the first formatters, in a worker at start-up (their locale data, slow on a phone, is shared). */
export function warmFormats(): void {
  formatDollars(0);
  yearIn(Date.now(), {});
}

/** The note under a sum that left orders out: " · 2 orders left out: amounts not shown by the API". */
export function leftOutNote(unknown: number): string {
  return unknown === 0
    ? ''
    : ` · ${countOf(unknown, 'order')} left out: amounts not shown by the API`;
}

/** A calendar day as kept ("2026-11-28") as a seller reads it: "Nov 28" (the year when not this). */
export function formatDay(day: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(day)
    ? formatShortDate(`${day}T12:00:00Z`, { timeZone: 'UTC' })
    : day;
}
