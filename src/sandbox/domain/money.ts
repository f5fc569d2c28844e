/** Money is held as integer cents and shown as two-decimal strings; floats never touch it. */

export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const DECIMAL = /^(\d+)(?:\.(\d{1,2}))?$/;

/**
 * A dollar amount (string or number) in cents, or null unless non-negative with two decimals at
 * most.
 */
export function parseDollars(value: unknown): number | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    text = String(value);
    if (/e/i.test(text)) return null;
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const whole = Number(match[1]);
  if (!Number.isSafeInteger(whole) || whole > 1e12) return null;
  const fraction = (match[2] ?? '').padEnd(2, '0');
  return whole * 100 + Number(fraction);
}

/** Rounds a non-negative product of cents and a basis-point rate, half up. */
export function percentOf(cents: number, basisPoints: number): number {
  return Math.floor((cents * basisPoints + 5000) / 10000);
}
