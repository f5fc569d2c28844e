import { toCents } from '../sales/money';
import type { SaleBody } from './show-api';

/** Cents as dollars the seller reads ($1,234.50). */
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export const formatCents = (cents: number): string => dollars.format(cents / 100);

/** A sale made here, in the ledger's cents (as the server enters it: cash is price less trade). */
export function saleCents(sale: Pick<SaleBody, 'price' | 'tradeIn' | 'cost'>) {
  const priceCents = toCents(sale.price);
  const tradeCents = toCents(sale.tradeIn?.value);
  return {
    priceCents,
    tradeCents,
    cashCents: priceCents - tradeCents,
    costCents: sale.cost === null || sale.cost === '' ? null : toCents(sale.cost),
  };
}
