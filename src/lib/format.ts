/** Display helpers: money in dollars, instants and durations in US English, codes as words. */

/**
 * A formatter made on first use: the first `Intl` object starts ICU, which the first page's reads
 * should not wait for. Dates in sentences are written here, as `Intl` writes them for `en-US`
 * (format.test.ts). The short dates of tables and their full form on hover (`formatShortDate`,
 * `formatFullDate`) are `Intl`'s, in the seller's locale and zone: a table is drawn after the
 * page's first reads, and a date's words differ by locale.
 */
const onFirstUse = <T>(make: () => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};

const usd = onFirstUse(
  () => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }),
);

/** "1234567" → "1,234,567". */
const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * The noun for a count: `one` for 1, `other` for every other whole count, which is what
 * `Intl.PluralRules('en-US')` chooses (written here for the reason above; test/ui/format.test.ts
 * compares them).
 */
export function plural(count: number, one: string, other = `${one}s`): string {
  return count === 1 ? one : other;
}

/** "1 listing", "414 listings", "1,204 cells". */
export function countOf(count: number, one: string, other = `${one}s`): string {
  return `${Number.isInteger(count) && count >= 0 ? grouped(String(count)) : String(count)} ${plural(count, one, other)}`;
}

/**
 * "$1,234.50", "-$5.00": what `Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })`
 * writes (the amount's shortest decimal rounded half away from zero to cents), written here; the
 * formatter itself only for amounts past a trillion or under a millionth (exponent notation).
 */
export function formatMoney(amount: string | null | undefined): string {
  if (amount === null || amount === undefined || amount === '') return '—';
  const value = Number(amount);
  if (!Number.isFinite(value)) return amount;
  const abs = Math.abs(value);
  if (abs >= 1e12 || (abs !== 0 && abs < 1e-6)) return usd().format(value);
  const [whole = '0', fraction = ''] = String(abs).split('.');
  let cents = Number(whole) * 100 + Number(`${fraction}00`.slice(0, 2));
  if ((fraction[2] ?? '0') >= '5') cents += 1;
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const rest = cents % 100;
  return `${sign}$${grouped(String((cents - rest) / 100))}.${rest < 10 ? '0' : ''}${rest}`;
}

const SHORT_MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const twoDigits = (n: number) => (n < 10 ? `0${n}` : String(n));

/** "Nov 24, 2026, 03:59 PM", in the browser's time zone. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const d = new Date(at);
  const hour = d.getHours();
  const clock = `${twoDigits(hour % 12 || 12)}:${twoDigits(d.getMinutes())} ${hour < 12 ? 'AM' : 'PM'}`;
  return `${SHORT_MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()}, ${clock}`;
}

/** "Nov 3" (a UTC day). */
export function formatUtcDay(at: number): string {
  const d = new Date(at);
  return `${SHORT_MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
}

/** "Nov 2026" (a UTC month); `long`: "November 2026". */
export function formatUtcMonth(at: number, long = false): string {
  const d = new Date(at);
  return `${(long ? MONTHS : SHORT_MONTHS)[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** `deactivated_by_seller` → `deactivated by seller`. */
export function humanize(code: string | null | undefined): string {
  if (!code) return '—';
  return code.replace(/_/g, ' ');
}

type TimeUnit = 'day' | 'hour' | 'minute' | 'second';

/** The words for "now", "this minute", "yesterday", "tomorrow" (`numeric: 'auto'`). */
const SAID: Partial<Record<TimeUnit, Record<number, string>>> = {
  day: { [-1]: 'yesterday', 0: 'today', 1: 'tomorrow' },
  hour: { 0: 'this hour' },
  minute: { 0: 'this minute' },
  second: { 0: 'now' },
};
/** Short unit names ("min.", "hr."), singular and plural. */
const SHORT: Record<TimeUnit, [string, string]> = {
  day: ['day', 'days'],
  hour: ['hr.', 'hr.'],
  minute: ['min.', 'min.'],
  second: ['sec.', 'sec.'],
};

/**
 * `value` units from now in words: "in 3 days", "2 hours ago", "tomorrow"; `short`: "5 min.
 * ago" (what `Intl.RelativeTimeFormat('en', { numeric: 'auto' })` writes).
 */
export function unitsFromNow(value: number, unit: TimeUnit, short = false): string {
  const said = SAID[unit]?.[value];
  if (said !== undefined) return said;
  const count = Math.abs(value);
  const [one, many] = short ? SHORT[unit] : [unit, `${unit}s`];
  const amount = `${grouped(String(count))} ${count === 1 ? one : many}`;
  return value < 0 ? `${amount} ago` : `in ${amount}`;
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

const ISO_INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})\b/g;

/**
 * A server's sentence with the instants in it written for a person: "ship it to the hub by
 * 2026-11-25T09:25:43.679Z" reads "ship it to the hub by Nov 25, 2026, 09:25 AM".
 */
export function formatTimestampsIn(text: string): string {
  return text.replace(ISO_INSTANT, (iso) => formatDateTime(iso));
}

/** Where and how a date is written: the seller's locale and time zone (the browser's by default). */
export interface DateContext {
  locale?: string | undefined;
  timeZone?: string | undefined;
  /** The instant "this year" is judged from. */
  now?: number | undefined;
}

/** One `Intl.DateTimeFormat` per locale, zone and shape, made on first use (see `onFirstUse`). */
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

/**
 * A date short enough for a table cell: "Nov 27", with the year only when it is not this year
 * ("Aug 3, 2025") and the time only when asked ("Nov 27, 10:00 AM").
 */
export function formatShortDate(
  iso: string | null | undefined,
  { time = false, ...context }: DateContext & { time?: boolean } = {},
): string {
  if (!iso) return '—';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const otherYear = yearIn(at, context) !== yearIn(context.now ?? Date.now(), context);
  return dateFormat(context, {
    month: 'short',
    day: 'numeric',
    ...(otherYear ? { year: 'numeric' } : {}),
    ...(time ? { hour: 'numeric', minute: '2-digit' } : {}),
  }).format(at);
}

/** The whole date, for a hover and for screen readers: "Fri, November 27, 2026, 10:00 AM EST". */
export function formatFullDate(iso: string | null | undefined, context: DateContext = {}): string {
  if (!iso) return '—';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  return dateFormat(context, {
    weekday: 'short',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(at);
}
