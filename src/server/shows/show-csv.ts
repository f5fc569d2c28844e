import { toCsv } from '../../shared/delimited';
import { formatCents } from '../../shared/money';
import { totalsOf, type Tender, type TenderKind } from '../../shared/show-tenders';
import type { LedgerEntry, Show } from './show-store';

/**
 * A show's ledger for the books: one row per sale (a column per way to pay, undone sales marked
 * and left out of the totals), then the totals; dates as a person reads them, in the seller's
 * time zone when the browser named one; formulas neutralised.
 */

const HEADER = [
  'show',
  'show date',
  'sold at',
  'sold by',
  'card',
  'grader',
  'cert',
  'asking',
  'discount',
  'price',
  'cash',
  'card payment',
  'other',
  'other paid by',
  'trade value',
  'traded card',
  'traded card cert',
  'cost',
  'margin',
  'sold online first',
  'undone',
];

const dollars = (cents: number | null | undefined): string =>
  cents === null || cents === undefined ? '' : formatCents(cents);

/** "1 card", "2 cards". */
const count = (n: number, word: string) => `${n} ${n === 1 ? word : `${word}s`}`;

/** A time zone the runtime knows, else UTC. */
export function knownZone(zone: string | undefined): string {
  if (!zone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

/** "Nov 28, 2026 3:20 PM" in `zone`. */
function timeWords(iso: string, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: zone,
  }).formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  return `${part('month')} ${part('day')}, ${part('year')} ${part('hour')}:${part('minute')} ${part('dayPeriod')}`;
}

/** "Nov 28, 2026" from the show's YYYY-MM-DD. */
const dayWords = (date: string) =>
  new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T00:00:00Z`));

const sumOf = (tenders: readonly Tender[], kind: TenderKind): number | null => {
  const of = tenders.filter((tender) => tender.kind === kind);
  return of.length === 0 ? null : of.reduce((sum, tender) => sum + tender.amountCents, 0);
};

export function showCsv(show: Show, entries: readonly LedgerEntry[], zone = 'UTC'): string {
  const rows: string[][] = [HEADER];
  const showDay = dayWords(show.date);
  for (const entry of entries) {
    const trades = entry.tenders.filter((tender) => tender.kind === 'trade');
    const others = entry.tenders.filter((tender) => tender.kind === 'other');
    const voided = entry.voided;
    rows.push([
      show.name,
      showDay,
      timeWords(entry.soldAt, zone),
      entry.soldBy,
      entry.title,
      entry.grader ?? '',
      entry.certNumber ?? '',
      dollars(entry.priceCents + entry.discountCents),
      dollars(entry.discountCents),
      dollars(entry.priceCents),
      dollars(sumOf(entry.tenders, 'cash')),
      dollars(sumOf(entry.tenders, 'card')),
      dollars(sumOf(entry.tenders, 'other')),
      others.map((tender) => tender.note ?? '').join('; '),
      dollars(sumOf(entry.tenders, 'trade')),
      trades.map((tender) => tender.trade?.title ?? '').join('; '),
      trades.map((tender) => tender.trade?.certNumber ?? '').join('; '),
      dollars(entry.costCents),
      entry.costCents === null ? '' : dollars(entry.priceCents - entry.costCents),
      entry.soldOnline ? 'YES: settle with the buyer' : 'no',
      voided
        ? `UNDONE ${timeWords(voided.at, zone)} by ${voided.by}${voided.reason ? `: ${voided.reason}` : ''} (not counted)`
        : '',
    ]);
  }
  const totals = totalsOf(entries);
  rows.push([
    show.name,
    showDay,
    'TOTAL',
    '',
    count(totals.cardsSold, 'card'),
    '',
    '',
    dollars(totals.salesCents + totals.discountCents),
    dollars(totals.discountCents),
    dollars(totals.salesCents),
    dollars(totals.cashCents),
    dollars(totals.cardCents),
    dollars(totals.otherCents),
    '',
    dollars(totals.tradeValueCents),
    count(totals.trades, 'trade'),
    '',
    '',
    dollars(totals.marginCents),
    String(totals.soldOnline),
    totals.voided > 0 ? `${count(totals.voided, 'sale')} undone` : '',
  ]);
  return toCsv(rows);
}
