import type { OutboxItem, SaleWrite } from '../../../api/outbox/outbox';
import { entryOfWrite } from '../../../api/shows/sale-tenders';
import type { LedgerEntry } from '../../../api/shows/show-api';
import { NO_TOTALS, totalsOf, type ShowTotals } from '../../../shared/show-tenders';

/** A sale of this phone the ledger as read does not hold, as the ledger would enter it. */
export interface PhoneSale {
  write: SaleWrite;
  /** Not sent yet (waiting, being sent, or held for the account that made it). */
  waiting: boolean;
  entry: LedgerEntry;
}

/** Not a sale: dropped by the seller, failed, or refused by the ledger (sold before). */
const counts = (write: SaleWrite) =>
  write.state !== 'dropped' && write.state !== 'failed' && write.soldBefore === undefined;

/** This phone's sales the ledger read lacks; `entries` undefined (never read): only those waiting. */
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
    return [{ write: item, waiting, entry: entryOfWrite(item) }];
  });
}

/** A sale of this phone as a row of the ledger's table (`waiting` marks it). */
export function asLedgerRow(sale: PhoneSale): LedgerEntry & { waiting: boolean } {
  return { ...sale.entry, waiting: sale.waiting };
}

/** Two sets of totals added figure by figure. */
function addTotals(a: ShowTotals, b: ShowTotals): ShowTotals {
  const sum = { ...a };
  for (const name of Object.keys(NO_TOTALS) as (keyof ShowTotals)[]) sum[name] = a[name] + b[name];
  return sum;
}

/** The show's figures with this phone's sales in them, and the part of them still waiting. */
export function showTotals(ledger: ShowTotals | undefined, sales: readonly PhoneSale[]) {
  return {
    totals: addTotals(ledger ?? NO_TOTALS, totalsOf(sales.map((sale) => sale.entry))),
    waiting: totalsOf(sales.filter((sale) => sale.waiting).map((sale) => sale.entry)),
  };
}
