import { toCsv } from '../../shared/delimited';
import { totalsOf, type LedgerEntry, type Show } from './show-store';

/** A show's ledger for the books: one row per sale, then the totals; formulas neutralised. */

const HEADER = [
  'show',
  'show date',
  'sold at',
  'sold by',
  'card',
  'grader',
  'cert',
  'price',
  'cash',
  'traded card',
  'traded card cert',
  'trade value',
  'cost',
  'margin',
  'sold online first',
];

const dollars = (cents: number | null | undefined): string =>
  cents === null || cents === undefined ? '' : (cents / 100).toFixed(2);

export function showCsv(show: Show, entries: readonly LedgerEntry[]): string {
  const rows: string[][] = [HEADER];
  for (const entry of entries) {
    rows.push([
      show.name,
      show.date,
      entry.soldAt,
      entry.soldBy,
      entry.title,
      entry.grader ?? '',
      entry.certNumber ?? '',
      dollars(entry.priceCents),
      dollars(entry.cashCents),
      entry.tradeIn?.title ?? '',
      entry.tradeIn?.certNumber ?? '',
      dollars(entry.tradeIn?.valueCents),
      dollars(entry.costCents),
      entry.costCents === null ? '' : dollars(entry.priceCents - entry.costCents),
      entry.soldOnline ? 'YES: settle with the buyer' : 'no',
    ]);
  }
  const totals = totalsOf(entries);
  rows.push([
    show.name,
    show.date,
    'TOTAL',
    '',
    `${totals.cardsSold} cards`,
    '',
    '',
    dollars(totals.salesCents),
    dollars(totals.cashCents),
    `${totals.trades} trades`,
    '',
    dollars(totals.tradeValueCents),
    '',
    dollars(totals.marginCents),
    String(totals.soldOnline),
  ]);
  return toCsv(rows);
}
