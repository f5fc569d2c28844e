import type { Tender } from '../../shared/show-tenders';
import { centsOf } from '../../shared/money';
import type { SaleBody } from './show-api';

/**
 * A sale as this device sent it (or keeps it waiting in the outbox) read as the ledger reads it:
 * its tenders in cents. A sale queued before tenders is its traded card and the rest in cash.
 */
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
