/** How a table sale was paid (tenders) and a show's figures by tender; integer cents. */

import { formatDollars } from './money';

export const TENDER_KINDS = ['cash', 'card', 'other', 'trade'] as const;
export type TenderKind = (typeof TENDER_KINDS)[number];

/** A card taken in trade: its agreed value is the tender's amount (its cost when listed later). */
export interface TradeCard {
  title: string;
  certNumber: string | null;
  grader: string | null;
}

/** One way the buyer paid: cash, card reader, another way (`note`), or a card in trade. */
export interface Tender {
  kind: TenderKind;
  amountCents: number;
  /** For `other`: how it was paid, in the seller's words. */
  note: string | null;
  /** For `trade`: the card taken. */
  trade: TradeCard | null;
}

/** What the totals read of an entry. */
export interface TotalsEntry {
  priceCents: number;
  discountCents: number;
  tenders: readonly Tender[];
  costCents: number | null;
  soldOnline: boolean;
  /** Undone: kept in the ledger, left out of every figure but `voided`. */
  voided: unknown;
}

/** A show's figures, all zero. */
export const NO_TOTALS = {
  cardsSold: 0,
  salesCents: 0,
  cashCents: 0,
  cardCents: 0,
  otherCents: 0,
  trades: 0,
  tradeValueCents: 0,
  /** Taken off the asking prices. */
  discountCents: 0,
  /** Price less cost, over the entries whose cost is known. */
  marginCents: 0,
  withoutCost: 0,
  soldOnline: 0,
  /** Sales undone: in the ledger, not counted. */
  voided: 0,
};

export type ShowTotals = typeof NO_TOTALS;

/** The figures of a show's page, from its entries (undone ones only counted as undone). */
export function totalsOf(entries: readonly TotalsEntry[]): ShowTotals {
  const totals = { ...NO_TOTALS };
  for (const entry of entries) {
    if (entry.voided) {
      totals.voided++;
      continue;
    }
    totals.cardsSold++;
    totals.salesCents += entry.priceCents;
    totals.discountCents += entry.discountCents;
    for (const tender of entry.tenders) {
      if (tender.kind === 'cash') totals.cashCents += tender.amountCents;
      else if (tender.kind === 'card') totals.cardCents += tender.amountCents;
      else if (tender.kind === 'other') totals.otherCents += tender.amountCents;
      else {
        totals.trades++;
        totals.tradeValueCents += tender.amountCents;
      }
    }
    if (entry.costCents === null) totals.withoutCost++;
    else totals.marginCents += entry.priceCents - entry.costCents;
    if (entry.soldOnline) totals.soldOnline++;
  }
  return totals;
}

/** The tenders' sum, to check against the price. */
export const tenderSum = (tenders: readonly { amountCents: number }[]): number =>
  tenders.reduce((sum, tender) => sum + tender.amountCents, 0);

/** "$100.00 cash + $150.00 by card": how it was paid, in the seller's words. */
export function tenderWords(tenders: readonly Tender[]): string {
  return tenders
    .map((tender) => {
      const amount = formatDollars(tender.amountCents);
      if (tender.kind === 'cash') return `${amount} cash`;
      if (tender.kind === 'card') return `${amount} by card`;
      if (tender.kind === 'other') return `${amount} by ${tender.note ?? 'another way'}`;
      return `${amount} in trade${tender.trade ? ` (${tender.trade.title})` : ''}`;
    })
    .join(' + ');
}

/** "$250.00 cash", "$250.00 by card", "$250.00 ($100.00 cash + $150.00 by card)". */
export function paidWords(priceCents: number, tenders: readonly Tender[]): string {
  const only = tenders.length === 1 ? tenders[0] : undefined;
  if (only && only.amountCents === priceCents && only.kind !== 'trade') {
    return tenderWords(tenders);
  }
  return `${formatDollars(priceCents)} (${tenderWords(tenders)})`;
}
