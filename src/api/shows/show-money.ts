/** Cents as dollars the seller reads ($1,234.50). */
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export const formatCents = (cents: number): string => dollars.format(cents / 100);
