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
