/** Exact money on decimal strings: bigint cents and basis points, rounded half up. */

import { formatCents } from './money';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** The spec's price bounds, in cents: 10 to 1,000,000 dollars. */
export const MIN_PRICE_CENTS = 1_000n;
export const MAX_PRICE_CENTS = 100_000_000n;

/** The words of a price outside the spec's bounds, after a column's name. */
export const PRICE_BOUND_WORDS = {
  below: 'must be at least 10.00',
  above: 'must be at most 1,000,000.00',
} as const;

/** The spec's bounds on a price in cents, or null when it is within them. */
export function priceBoundsMessage(cents: bigint): string | null {
  if (cents < MIN_PRICE_CENTS) return PRICE_BOUND_WORDS.below;
  if (cents > MAX_PRICE_CENTS) return PRICE_BOUND_WORDS.above;
  return null;
}

/** A percentage (`12.5`, `7.25%`) in hundredths; two decimals at most, not 0, not above `max`. */
export function parsePercent(text: string, max = 100): Parsed<bigint> {
  const value = text.trim().replace(/%$/, '').trim();
  const match = /^\d+(?:\.(\d{0,2}))?$/.exec(value);
  if (!match) {
    return {
      ok: false,
      message: /^\d+\.\d{3,}$/.test(value)
        ? 'must have at most 2 decimals'
        : 'must be a percentage like 10 or 12.5',
    };
  }
  const [whole = '0'] = value.split('.');
  const hundredths = BigInt(whole) * 100n + BigInt(((match[1] ?? '') + '00').slice(0, 2));
  if (hundredths === 0n) return { ok: false, message: 'must be more than 0%' };
  if (hundredths > BigInt(Math.round(max * 100)))
    return { ok: false, message: `must be at most ${max}%` };
  return { ok: true, value: hundredths };
}

/** A percentage in hundredths as text: 1250n → "12.5%". */
export function formatPercent(hundredths: bigint): string {
  const whole = hundredths / 100n;
  const frac = (hundredths % 100n).toString().padStart(2, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}%` : `${whole}%`;
}

/** An exact ratio of cents, numerator over a positive denominator. */
interface Exact {
  numerator: bigint;
  denominator: bigint;
}

/** Rounds a non-negative exact amount of cents half up (12.5 cents → 13 cents). */
function roundHalfUp({ numerator, denominator }: Exact): bigint {
  return (numerator * 2n + denominator) / (2n * denominator);
}

/** The exact dollar value of an exact amount of cents, as a decimal (denominators of 10^k). */
function exactDollars({ numerator, denominator }: Exact): string {
  // Denominators here are 1 or 10,000 (a percentage in hundredths): dollars have 6 decimals.
  const micro = (numerator * 10_000n) / denominator; // millionths of a dollar
  const whole = micro / 1_000_000n;
  const frac = (micro % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${whole}.${frac.padEnd(2, '0')}`;
}

/** The result of a price change: the new price and how it was reached. */
export interface Adjusted {
  cents: bigint;
  /** The exact value before rounding, in dollars (`111.105`). */
  exact: string;
  /** True when the exact value had more than two decimals. */
  rounded: boolean;
  /** The bounds message when the result leaves 10 to 1,000,000, else null. */
  error: string | null;
  /** One line a seller can check: "129.99 − 10% = 116.991 → 116.99 (rounded half up)". */
  explanation: string;
}

export type PriceChange =
  | { kind: 'set'; cents: bigint }
  | { kind: 'percent'; direction: 'raise' | 'lower'; hundredths: bigint }
  | { kind: 'amount'; direction: 'raise' | 'lower'; cents: bigint };

/** A price change's exact result, before rounding. */
function exactChange(price: bigint, change: PriceChange): Exact {
  if (change.kind === 'set') return { numerator: change.cents, denominator: 1n };
  if (change.kind === 'amount') {
    const sign = change.direction === 'raise' ? 1n : -1n;
    return { numerator: price + sign * change.cents, denominator: 1n };
  }
  const factor =
    change.direction === 'raise' ? 10_000n + change.hundredths : 10_000n - change.hundredths;
  return { numerator: price * factor, denominator: 10_000n };
}

/** Applies a price change to a price in cents, exactly, rounding half up to the cent. */
export function adjustPrice(price: bigint, change: PriceChange): Adjusted {
  const exact = exactChange(price, change);
  let label: string;
  if (change.kind === 'set') {
    label = `set to ${formatCents(change.cents)}`;
  } else if (change.kind === 'amount') {
    label = `${formatCents(price)} ${change.direction === 'raise' ? '+' : '−'} ${formatCents(change.cents)}`;
  } else {
    label = `${formatCents(price)} ${change.direction === 'raise' ? '+' : '−'} ${formatPercent(change.hundredths)}`;
  }
  if (exact.numerator < 0n) {
    return {
      cents: 0n,
      exact: `-${exactDollars({ numerator: -exact.numerator, denominator: exact.denominator })}`,
      rounded: false,
      error: 'must be at least 10.00',
      explanation: `${label} is below zero`,
    };
  }
  const cents = roundHalfUp(exact);
  const rounded = exact.numerator % exact.denominator !== 0n;
  const exactText = exactDollars(exact);
  const explanation =
    change.kind === 'set'
      ? label
      : rounded
        ? `${label} = ${exactText} → ${formatCents(cents)} (rounded half up to the cent)`
        : `${label} = ${formatCents(cents)}`;
  return { cents, exact: exactText, rounded, error: priceBoundsMessage(cents), explanation };
}

/** A minimum offer as a percentage of a price, rounded half up to the cent (at most the price). */
export function minimumOfferFromPercent(price: bigint, hundredths: bigint): Adjusted {
  const exact = { numerator: price * hundredths, denominator: 10_000n };
  const cents = roundHalfUp(exact);
  const rounded = exact.numerator % exact.denominator !== 0n;
  const exactText = exactDollars(exact);
  const label = `${formatPercent(hundredths)} of ${formatCents(price)}`;
  return {
    cents,
    exact: exactText,
    rounded,
    error: cents > price ? 'must be at most the price' : null,
    explanation: rounded
      ? `${label} = ${exactText} → ${formatCents(cents)} (rounded half up to the cent)`
      : `${label} = ${formatCents(cents)}`,
  };
}

/** How a changed price ends: exact cents, a .99 ending, or whole dollars. */
export const PRICE_ENDINGS = ['cent', '99', 'whole'] as const;
export type PriceEnding = (typeof PRICE_ENDINGS)[number];
export const PRICE_ENDING_LABELS: Record<PriceEnding, string> = {
  cent: 'To the cent',
  '99': 'Ending in .99',
  whole: 'Whole dollars (.00)',
};

/** Gives an adjusted price its ending: whole dollars round half up; .99 is that less a cent. */
export function withEnding(adjusted: Adjusted, ending: PriceEnding): Adjusted {
  if (ending === 'cent' || adjusted.error) return adjusted;
  const cents = endingCents(adjusted.cents, ending);
  if (cents === adjusted.cents) return adjusted;
  return {
    ...adjusted,
    cents,
    rounded: true,
    error: priceBoundsMessage(cents),
    explanation: `${adjusted.explanation} → ${formatCents(cents)} (${PRICE_ENDING_LABELS[ending].toLowerCase()})`,
  };
}

/** A price in cents with its ending (as `withEnding`). */
function endingCents(cents: bigint, ending: PriceEnding): bigint {
  if (ending === 'cent') return cents;
  const dollars = (cents + 50n) / 100n;
  return ending === 'whole' ? dollars * 100n : dollars * 100n - 1n;
}

/** `withEnding(adjustPrice(price, change), ending)` without the words; null on an error. */
export function adjustedCents(price: bigint, change: PriceChange, ending: PriceEnding) {
  const exact = exactChange(price, change);
  if (exact.numerator < 0n) return null;
  const cents = roundHalfUp(exact);
  if (priceBoundsMessage(cents) !== null) return null;
  const ended = endingCents(cents, ending);
  return priceBoundsMessage(ended) === null ? ended : null;
}
