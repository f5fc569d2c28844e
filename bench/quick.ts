/**
 * `SLABDESK_BENCH_QUICK=1`: every bench at small sizes and one run. CI runs it to prove each
 * bench still runs to its end (a renamed button fails it); its figures are not comparable with a
 * full run's and go to their own file.
 */
export const QUICK = process.env.SLABDESK_BENCH_QUICK === '1';

/** The full run's size, or the quick run's. */
export const sized = <T>(full: T, quick: T): T => (QUICK ? quick : full);
