/** Timestamps are held as epoch milliseconds and shown as ISO 8601 UTC with milliseconds. */
export function isoTime(ms: number): string;
export function isoTime(ms: number | null): string | null;
export function isoTime(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATETIME =
  /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** Parses an ISO 8601 date or date-time with a zone; null when it is neither. */
export function parseIsoInstant(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (ISO_DATE.test(text)) {
    const ms = Date.parse(`${text}T00:00:00Z`);
    return Number.isNaN(ms) ? null : ms;
  }
  if (!ISO_DATETIME.test(text)) return null;
  const ms = Date.parse(text.replace(' ', 'T'));
  return Number.isNaN(ms) ? null : ms;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
