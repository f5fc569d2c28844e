/** Sums of the money figures: whole cents (read by `shared/money.ts`), and what was left out. */

export const DAY_MS = 86_400_000;

/** A sum of the amounts that are known, and how many were left out because they were not. */
export interface KnownSum {
  cents: number;
  /** How many records had no known amount (not shown or not readable): left out of `cents`. */
  unknown: number;
}

export function sumKnown(amounts: Iterable<number | undefined>): KnownSum {
  const sum: KnownSum = { cents: 0, unknown: 0 };
  for (const amount of amounts) {
    if (amount === undefined) sum.unknown++;
    else sum.cents += amount;
  }
  return sum;
}
