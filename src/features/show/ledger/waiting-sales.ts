import type { OutboxItem, SaleWrite } from '../../../api/outbox/outbox';
import type { LedgerEntry, ShowTotals } from '../../../api/shows/show-api';
import { saleCents } from '../../../api/shows/show-money';

/**
 * The sales this phone made at a show that the ledger as read does not hold yet: waiting in the
 * outbox (no network, or held for its account), or sent since the ledger was last read. The
 * show page lists them and adds them into its totals, saying how much of each is waiting.
 */

/** A sale of this phone the ledger as read does not hold. */
export interface PhoneSale {
  write: SaleWrite;
  /** Not sent yet (waiting, being sent, or held for the account that made it). */
  waiting: boolean;
  priceCents: number;
  cashCents: number;
  tradeCents: number;
  costCents: number | null;
}

/** Not a sale: dropped by the seller, failed, or refused by the ledger (sold before). */
const counts = (write: SaleWrite) =>
  write.state !== 'dropped' && write.state !== 'failed' && write.soldBefore === undefined;

/**
 * `entries`: the ledger as read, or undefined when this phone never read it (then only what waits
 * is added: a sale sent is in the server's totals already).
 */
export function phoneSales(
  items: readonly OutboxItem[],
  showKey: string,
  entries: readonly LedgerEntry[] | undefined,
): PhoneSale[] {
  const inLedger = new Set(entries?.map((entry) => entry.key));
  return items.flatMap((item) => {
    if (item.kind !== 'sell-at-show' || item.showKey !== showKey) return [];
    if (!counts(item) || inLedger.has(item.sale.key)) return [];
    const waiting = item.state === 'waiting' || item.state === 'sending' || item.state === 'held';
    if (!waiting && entries === undefined) return [];
    return [{ write: item, waiting, ...saleCents(item.sale) }];
  });
}

/** A sale of this phone as a row of the ledger's table (`waiting` marks it). */
export function asLedgerRow(sale: PhoneSale): LedgerEntry & { waiting: boolean } {
  const { write } = sale;
  const trade = write.sale.tradeIn;
  return {
    key: write.sale.key,
    showKey: write.showKey,
    soldAt: write.sale.soldAt,
    recordedAt: write.madeAt,
    soldBy: write.by?.name ?? 'This phone',
    listingId: write.listingId,
    title: write.sale.title,
    certNumber: write.sale.certNumber,
    grader: write.sale.grader,
    priceCents: sale.priceCents,
    cashCents: sale.cashCents,
    tradeIn: trade
      ? {
          title: trade.title,
          certNumber: trade.certNumber,
          grader: trade.grader,
          valueCents: sale.tradeCents,
        }
      : null,
    costCents: sale.costCents,
    soldOnline: false,
    offMarket: write.offMarket ?? 'not_sent',
    note: write.note ?? null,
    waiting: sale.waiting,
  };
}

const NONE: ShowTotals = {
  cardsSold: 0,
  salesCents: 0,
  cashCents: 0,
  trades: 0,
  tradeValueCents: 0,
  marginCents: 0,
  withoutCost: 0,
  soldOnline: 0,
};

/** The totals of these sales alone, as the ledger counts its own. */
export function totalsOfSales(sales: readonly PhoneSale[]): ShowTotals {
  const totals = { ...NONE };
  for (const sale of sales) {
    totals.cardsSold++;
    totals.salesCents += sale.priceCents;
    totals.cashCents += sale.cashCents;
    if (sale.write.sale.tradeIn) {
      totals.trades++;
      totals.tradeValueCents += sale.tradeCents;
    }
    if (sale.costCents === null) totals.withoutCost++;
    else totals.marginCents += sale.priceCents - sale.costCents;
  }
  return totals;
}

/** Two sets of totals added figure by figure. */
export function addTotals(a: ShowTotals, b: ShowTotals): ShowTotals {
  const sum = { ...a };
  for (const name of Object.keys(NONE) as (keyof ShowTotals)[]) sum[name] = a[name] + b[name];
  return sum;
}

/** The show's figures with this phone's sales in them, and the part of them still waiting. */
export function showTotals(ledger: ShowTotals | undefined, sales: readonly PhoneSale[]) {
  return {
    totals: addTotals(ledger ?? NONE, totalsOfSales(sales)),
    waiting: totalsOfSales(sales.filter((sale) => sale.waiting)),
  };
}
