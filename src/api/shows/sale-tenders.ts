import type { Tender } from '../../shared/show-tenders';
import { centsOf } from '../../shared/money';
import type { SaleBody } from './show-api';

/** A sale as this device sent or queued it, read as the ledger reads it: tenders in cents. */
export function tendersOfBody(sale: Pick<SaleBody, 'price' | 'tenders' | 'tradeIn'>): Tender[] {
  if (sale.tenders) {
    return sale.tenders.map((tender) => ({
      kind: tender.kind,
      amountCents: centsOf(tender.amount) ?? 0,
      note: tender.kind === 'other' ? tender.note : null,
      trade:
        tender.kind === 'trade'
          ? { title: tender.title, certNumber: tender.certNumber, grader: tender.grader }
          : null,
    }));
  }
  const tenders: Tender[] = [];
  const trade = sale.tradeIn;
  if (trade) {
    tenders.push({
      kind: 'trade',
      amountCents: centsOf(trade.value) ?? 0,
      note: null,
      trade: { title: trade.title, certNumber: trade.certNumber, grader: trade.grader },
    });
  }
  const cash = (centsOf(sale.price) ?? 0) - (trade ? (centsOf(trade.value) ?? 0) : 0);
  if (cash > 0 || tenders.length === 0) {
    tenders.push({ kind: 'cash', amountCents: cash, note: null, trade: null });
  }
  return tenders;
}
