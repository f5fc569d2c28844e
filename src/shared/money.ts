import * as z from 'zod/mini';

/** Money, the one way: decimal strings to whole cents and back, never through a float. */

/** Why a value is not an amount. */
export type CentsProblem = 'empty' | 'malformed' | 'decimals' | 'above';

export type CentsRead = { ok: true; cents: number } | { ok: false; problem: CentsProblem };

export interface CentsOptions {
  /** As a seller types or pastes it: a leading `$`, thousands commas and "12." are taken. */
  typed?: boolean;
  /** A leading `-` is taken (an amount the API wrote, a refund); a door for input refuses it. */
  signed?: boolean;
  /** The most it may be, in cents (default `MAX_CENTS`). */
  max?: number;
}

/** How an amount the API wrote is read: it may carry a sign (a refund, a fee given back). */
export const SIGNED: CentsOptions = { signed: true };

/** The most any amount may be: a trillion dollars, so cents stay exact integers in a Number. */
export const MAX_CENTS = 100_000_000_000_000;

const PLAIN = /^(\d+)(?:\.(\d*))?$/;
const GROUPED = /^(\d{1,3}(?:,\d{3})+)(?:\.(\d*))?$/;

/** An amount (text, or a number as JavaScript writes it) in whole cents, or why it is not one. */
export function readCents(value: unknown, options: CentsOptions = {}): CentsRead {
  if (value === null || value === undefined) return { ok: false, problem: 'empty' };
  if (typeof value !== 'string' && typeof value !== 'number') {
    return { ok: false, problem: 'malformed' };
  }
  let text = String(value).trim();
  const negative = options.signed === true && text.startsWith('-');
  if (negative) text = text.slice(1);
  if (options.typed && text.startsWith('$')) text = text.slice(1).trim();
  if (text === '') return { ok: false, problem: 'empty' };
  const match = PLAIN.exec(text) ?? (options.typed ? GROUPED.exec(text) : null);
  // "12." is a typed amount, never one the API writes.
  if (!match || (!options.typed && match[2] === '')) return { ok: false, problem: 'malformed' };
  const decimals = match[2] ?? '';
  if (decimals.length > 2) return { ok: false, problem: 'decimals' };
  const whole = match[1]!.replace(/,/g, '').replace(/^0+(?=\d)/, '');
  // More than 13 digits of dollars is past every bound; shorter ones multiply exactly.
  if (whole.length > 13) return { ok: false, problem: 'above' };
  const cents = Number(whole) * 100 + Number(decimals.padEnd(2, '0'));
  if (cents > (options.max ?? MAX_CENTS)) return { ok: false, problem: 'above' };
  return { ok: true, cents: negative && cents !== 0 ? -cents : cents };
}

/** An amount in whole cents; undefined when it is none or not one (see `readCents`). */
export function centsOf(value: unknown, options?: CentsOptions): number | undefined {
  const read = readCents(value, options);
  return read.ok ? read.cents : undefined;
}

/** An amount in whole cents as a bigint, for price-math's exact arithmetic; null when not one. */
export function exactCents(value: unknown, options?: CentsOptions): bigint | null {
  const cents = centsOf(value, options);
  return cents === undefined ? null : BigInt(cents);
}

/** Whole cents as the API writes money: 12345 → "123.45", -500 → "-5.00". */
export function formatCents(cents: number | bigint): string {
  const exact = typeof cents === 'bigint' ? cents : BigInt(Math.round(cents));
  const abs = exact < 0n ? -exact : exact;
  const text = `${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
  return exact < 0n ? `-${text}` : text;
}

let usd: Intl.NumberFormat | undefined;

/** Whole cents as a seller reads them: 123450 → "$1,234.50", -500 → "-$5.00". */
export function formatDollars(cents: number | bigint): string {
  usd ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  // The exact decimal string, so no float stands between the cents and the words.
  return usd.format(formatCents(cents) as `${number}`);
}

/** The words of each problem, after a field's name. */
export const AMOUNT_WORDS: Record<CentsProblem, string> = {
  empty: 'must be an amount like 12.50',
  malformed: 'must be an amount like 12.50',
  decimals: 'must have at most 2 decimals',
  above: 'is too large',
};

type FieldOptions = CentsOptions & { above?: string };
type Context = Pick<z.core.$RefinementCtx, 'addIssue'>;

const wordsOf = (problem: CentsProblem, options: FieldOptions) =>
  (problem === 'above' ? options.above : undefined) ?? AMOUNT_WORDS[problem];

/** The one parser as a zod refinement for an amount kept as text; `above` words the max. */
export const amountCheck =
  (options: FieldOptions = {}) =>
  (text: string, context: Context): void => {
    const read = readCents(text, options);
    if (!read.ok) context.addIssue({ code: 'custom', message: wordsOf(read.problem, options) });
  };

/** The one parser as a zod transform to whole cents: `.transform(amountToCents())` in zod. */
export const amountToCents =
  (options: FieldOptions = {}) =>
  (text: string, context: Context): number => {
    const read = readCents(text, options);
    if (read.ok) return read.cents;
    context.addIssue({ code: 'custom', message: wordsOf(read.problem, options) });
    return z.NEVER;
  };
