import type { SaleWrite } from '../outbox/outbox';
import type { Tender } from '../../shared/show-tenders';
import { centsOf } from '../../shared/money';
import type { LedgerEntry, SaleBody } from './show-api';

/** A card's cert and grader as the ledger keeps them (the server reads an absent one as null). */
const cardOf = (card: { certNumber?: string | null; grader?: string | null }) => ({
  certNumber: card.certNumber ?? null,
  grader: card.grader ?? null,
});

/** A sale as this device sent or queued it, read as the ledger reads it: tenders in cents. */
export function tendersOfBody(sale: Pick<SaleBody, 'price' | 'tenders' | 'tradeIn'>): Tender[] {
  if (sale.tenders) {
    return sale.tenders.map((tender) => ({
      kind: tender.kind,
      amountCents: centsOf(tender.amount) ?? 0,
      note: tender.kind === 'other' ? tender.note : null,
      trade: tender.kind === 'trade' ? { title: tender.title, ...cardOf(tender) } : null,
    }));
  }
  const tenders: Tender[] = [];
  const trade = sale.tradeIn;
  if (trade) {
    tenders.push({
      kind: 'trade',
      amountCents: centsOf(trade.value) ?? 0,
      note: null,
      trade: { title: trade.title, ...cardOf(trade) },
    });
  }
  const cash = (centsOf(sale.price) ?? 0) - (trade ? (centsOf(trade.value) ?? 0) : 0);
  if (cash > 0 || tenders.length === 0) {
    tenders.push({ kind: 'cash', amountCents: cash, note: null, trade: null });
  }
  return tenders;
}

/** This device's sale as the ledger enters it (a sale queued before tenders: trade and cash). */
export function entryOfWrite(write: SaleWrite): LedgerEntry {
  const sale = write.sale;
  return {
    key: sale.key,
    showKey: write.showKey,
    soldAt: sale.soldAt,
    recordedAt: write.madeAt,
    soldBy: write.by?.name ?? 'This phone',
    listingId: write.listingId,
    title: sale.title,
    ...cardOf(sale),
    priceCents: centsOf(sale.price) ?? 0,
    discountCents: centsOf(sale.discount) ?? 0,
    tenders: tendersOfBody(sale),
    costCents: sale.cost === null || sale.cost === '' ? null : (centsOf(sale.cost) ?? 0),
    soldOnline: false,
    offMarket: write.offMarket ?? 'not_sent',
    note: write.note ?? null,
    voided: null,
  };
}
