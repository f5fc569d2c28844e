/** Money as whole cents, so sums of many orders stay exact. */
export function toCents(amount: string | number | null | undefined): number {
  if (amount === null || amount === undefined || amount === '') return 0;
  const value = typeof amount === 'number' ? amount : Number(amount);
  return Number.isFinite(value) ? Math.round(value * 100) : 0;
}

/** Cents back to the API's decimal form (`1234` → `"12.34"`). */
export function fromCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export const DAY_MS = 86_400_000;

/** Money as whole cents when the API gave a readable amount; undefined otherwise, never zero. */
export function knownCents(amount: string | null | undefined): number | undefined {
  if (amount === null || amount === undefined || amount === '') return undefined;
  const value = Number(amount);
  return Number.isFinite(value) ? Math.round(value * 100) : undefined;
}

/** A sum of the amounts that are known, and how many were left out because they were not. */
export interface KnownSum {
  cents: number;
  /** How many records had no known amount (not shown or not readable): left out of `cents`. */
  unknown: number;
}

export function sumKnown(amounts: Iterable<number | undefined>): KnownSum {
  const sum: KnownSum = { cents: 0, unknown: 0 };
  for (const amount of amounts) addKnown(sum, amount);
  return sum;
}

/** Adds one amount to a sum in place: counted when known, else counted as unknown. */
export function addKnown(sum: KnownSum, amount: number | undefined): void {
  if (amount === undefined) sum.unknown++;
  else sum.cents += amount;
}
