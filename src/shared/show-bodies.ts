import { z } from 'zod';
import { amountToCents, formatDollars } from './money';
import { ONE_LINE, ONE_LINE_WORDS } from './one-line';
import { tenderSum, type Tender, type TradeCard } from './show-tenders';

/**
 * What a browser sends the show ledger (`/hub/shows`), checked by the server's routes: one source
 * for the server's checks and the page's types (`z.input`, imported as types only).
 */

/** A split past a handful of ways to pay is a mistake, not a sale. */
const MAX_TENDERS = 8;

export const Key = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, - or _');
const Money = z
  .string()
  .transform(amountToCents({ max: 999_999_999, above: 'must be at most 9,999,999.99' }));
/** A line of text, trimmed, from 1 to `max` characters. */
export const Text = (max: number) =>
  z.string().trim().min(1).max(max).regex(ONE_LINE, ONE_LINE_WORDS);
export const Optional = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => (value ? value : null));
const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  // A day the calendar has reads back as written (`Date.parse` reads `2026-02-30` as March 2).
  .refine((value) => {
    const at = Date.parse(`${value}T00:00:00Z`);
    return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === value;
  }, 'must be a real date');

export const NewShow = z.strictObject({ key: Key, name: Text(120), date: Day });
const TradeCardBody = { title: Text(300), certNumber: Optional(40), grader: Optional(20) };

const tender = (kind: Tender['kind'], amountCents: number, more: Partial<Tender> = {}): Tender => ({
  kind,
  amountCents,
  note: null,
  trade: null,
  ...more,
});
const tradeOf = ({ title, certNumber, grader }: TradeCard) => ({
  trade: { title, certNumber, grader },
});

/** One way the buyer paid, read into the ledger's tender; a card payment is its amount only. */
export const TenderBody = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('cash'), amount: Money }),
    z.strictObject({ kind: z.literal('card'), amount: Money }),
    z.strictObject({ kind: z.literal('other'), amount: Money, note: Text(80) }),
    z.strictObject({ kind: z.literal('trade'), amount: Money, ...TradeCardBody }),
  ])
  .transform((paid) => {
    if (paid.kind === 'other') return tender('other', paid.amount, { note: paid.note });
    return tender(paid.kind, paid.amount, paid.kind === 'trade' ? tradeOf(paid) : {});
  });

/** A sale as the ledger records it: its tenders as sent, or the older form's traded card and cash. */
export const NewEntry = z
  .strictObject({
    key: Key,
    soldAt: z.iso.datetime({ offset: true }),
    listingId: Text(120),
    title: Text(300),
    certNumber: Optional(40),
    grader: Optional(20),
    /** What the buyer paid, after the discount (asking = price + discount). */
    price: Money,
    discount: Money.optional(),
    /** How it was paid: one tender, or a split, adding up to the price. */
    tenders: z.array(TenderBody).min(1, 'say how it was paid').max(MAX_TENDERS).optional(),
    /** The form of sales queued before tenders (an older page's outbox): cash and one trade. */
    cash: Money.optional(),
    tradeIn: z.strictObject({ ...TradeCardBody, value: Money }).nullish(),
    cost: Money.nullish(),
    soldOnline: z.boolean(),
    offMarket: z.enum(['deactivated', 'sold_online', 'not_taken_off']),
    note: Optional(300),
  })
  .superRefine((entry, context) => {
    const issue = (path: (string | number)[], message: string) =>
      context.addIssue({ code: 'custom', path, message });
    if (entry.tenders) {
      // A tender that failed its own check is left unread (no amount): its field says why.
      if (!entry.tenders.every((tender) => Number.isSafeInteger(tender.amountCents))) return;
      if (entry.cash !== undefined || entry.tradeIn) {
        issue(['tenders'], 'send the tenders alone, without cash or tradeIn');
      }
      entry.tenders.forEach((tender, index) => {
        if (tender.amountCents <= 0) issue(['tenders', index, 'amount'], 'must be more than zero');
      });
      const paid = tenderSum(entry.tenders);
      if (paid !== entry.price) {
        const words = `the tenders add up to ${formatDollars(paid)}, not the price ${formatDollars(entry.price)}`;
        issue(['tenders'], words);
      }
      return;
    }
    const trade = entry.tradeIn?.value ?? 0;
    const cash = entry.cash ?? entry.price - trade;
    if (trade > entry.price) {
      issue(['tradeIn', 'value'], 'the traded card is worth more than the price');
    } else if (cash + trade !== entry.price) {
      issue(['cash'], 'cash and the traded card must add up to the price');
    }
  })
  .transform(({ price, discount, cost, cash, tradeIn, tenders, soldAt, ...entry }) => {
    const older = (): Tender[] => {
      const left = cash ?? price - (tradeIn?.value ?? 0);
      return [
        ...(tradeIn ? [tender('trade', tradeIn.value, tradeOf(tradeIn))] : []),
        ...(left > 0 || !tradeIn ? [tender('cash', left)] : []),
      ];
    };
    return {
      ...entry,
      soldAt: new Date(soldAt).toISOString(),
      priceCents: price,
      discountCents: discount ?? 0,
      costCents: cost ?? null,
      tenders: tenders ?? older(),
    };
  });
