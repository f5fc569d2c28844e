import { csvTime as timeWords, toCsv } from '../../shared/delimited';
import { formatCents } from '../../shared/money';
import { tenderSum, totalsOf } from '../../shared/show-tenders';
import type { ShowTotals, Tender, TenderKind } from '../../shared/show-tenders';
import type { LedgerEntry, Show } from './show-store';

// A show's ledger for the books: a row per sale (undone ones marked, not counted), then the totals.
const dollars = (cents: number | null) => (cents === null ? '' : formatCents(cents));

/** "1 card", "2 cards". */
const count = (n: number, word: string) => `${n} ${n === 1 ? word : `${word}s`}`;

/** "Nov 28, 2026" from the show's YYYY-MM-DD. */
export const dayWords = (date: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );

const paidBy = (entry: LedgerEntry, kind: TenderKind) =>
  entry.tenders.filter((tender) => tender.kind === kind);

const sumOf = (entry: LedgerEntry, kind: TenderKind): number | null => {
  const paid = paidBy(entry, kind);
  return paid.length === 0 ? null : tenderSum(paid);
};

/** What `kind`'s tenders carry in a column: their notes, or their traded cards' titles or certs. */
const said = (entry: LedgerEntry, kind: TenderKind, word: (tender: Tender) => string) =>
  paidBy(entry, kind).map(word).join('; ');

/** Each column: its header, a sale's cell (in `zone`), the totals' cell. */
const COLUMNS: [string, (e: LedgerEntry, zone: string) => string, (t: ShowTotals) => string][] = [
  ['sold at', (e, zone) => timeWords(e.soldAt, zone), () => 'TOTAL'],
  ['sold by', (e) => e.soldBy, () => ''],
  ['card', (e) => e.title, (t) => count(t.cardsSold, 'card')],
  ['grader', (e) => e.grader ?? '', () => ''],
  ['cert', (e) => e.certNumber ?? '', () => ''],
  [
    'asking',
    (e) => dollars(e.priceCents + e.discountCents),
    (t) => dollars(t.salesCents + t.discountCents),
  ],
  ['discount', (e) => dollars(e.discountCents), (t) => dollars(t.discountCents)],
  ['price', (e) => dollars(e.priceCents), (t) => dollars(t.salesCents)],
  ['cash', (e) => dollars(sumOf(e, 'cash')), (t) => dollars(t.cashCents)],
  ['card payment', (e) => dollars(sumOf(e, 'card')), (t) => dollars(t.cardCents)],
  ['other', (e) => dollars(sumOf(e, 'other')), (t) => dollars(t.otherCents)],
  ['other paid by', (e) => said(e, 'other', (t) => t.note ?? ''), () => ''],
  ['trade value', (e) => dollars(sumOf(e, 'trade')), (t) => dollars(t.tradeValueCents)],
  [
    'traded card',
    (e) => said(e, 'trade', (t) => t.trade?.title ?? ''),
    (t) => count(t.trades, 'trade'),
  ],
  ['traded card cert', (e) => said(e, 'trade', (t) => t.trade?.certNumber ?? ''), () => ''],
  ['cost', (e) => dollars(e.costCents), () => ''],
  [
    'margin',
    (e) => (e.costCents === null ? '' : dollars(e.priceCents - e.costCents)),
    (t) => dollars(t.marginCents),
  ],
  [
    'sold online first',
    (e) => (e.soldOnline ? 'YES: settle with the buyer' : 'no'),
    (t) => String(t.soldOnline),
  ],
  [
    'undone',
    ({ voided }, zone) =>
      voided
        ? `UNDONE ${timeWords(voided.at, zone)} by ${voided.by}${voided.reason ? `: ${voided.reason}` : ''} (not counted)`
        : '',
    (t) => (t.voided > 0 ? `${count(t.voided, 'sale')} undone` : ''),
  ],
];

export function showCsv(show: Show, entries: readonly LedgerEntry[], zone = 'UTC'): string {
  const first = [show.name, dayWords(show.date)];
  const totals = totalsOf(entries);
  return toCsv([
    ['show', 'show date', ...COLUMNS.map(([header]) => header)],
    ...entries.map((entry) => [...first, ...COLUMNS.map(([, cell]) => cell(entry, zone))]),
    [...first, ...COLUMNS.map(([, , total]) => total(totals))],
  ]);
}
