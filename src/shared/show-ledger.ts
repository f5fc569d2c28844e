import * as z from 'zod/mini';
import { NO_TOTALS, TENDER_KINDS, type ShowTotals } from './show-tenders';

/** The show ledger's answers (`/hub/shows`), one shape for the server that writes them and the page. */

const TradeCard = z.object({
  title: z.string(),
  certNumber: z.nullable(z.string()),
  grader: z.nullable(z.string()),
});
const TradeIn = z.extend(TradeCard, { valueCents: z.number() });

/** One way the buyer paid (`shared/show-tenders.ts`). */
const Tender = z.object({
  kind: z.enum(TENDER_KINDS),
  amountCents: z.number(),
  note: z.nullable(z.string()),
  trade: z.nullable(TradeCard),
});

export const LedgerEntry = z.object({
  key: z.string(),
  showKey: z.string(),
  soldAt: z.string(),
  recordedAt: z.string(),
  soldBy: z.string(),
  listingId: z.string(),
  title: z.string(),
  certNumber: z.nullable(z.string()),
  grader: z.nullable(z.string()),
  priceCents: z.number(),
  discountCents: z.number(),
  tenders: z.array(Tender),
  costCents: z.nullable(z.number()),
  soldOnline: z.boolean(),
  offMarket: z.string(),
  note: z.nullable(z.string()),
  /** Undone by the seller: kept, out of the totals. */
  voided: z.nullable(z.object({ at: z.string(), by: z.string(), reason: z.nullable(z.string()) })),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

/** Every figure of `NO_TOTALS`, as a number. */
export const ShowTotalsAnswer = z.object(
  Object.fromEntries(Object.keys(NO_TOTALS).map((figure) => [figure, z.number()])) as Record<
    keyof ShowTotals,
    z.ZodMiniNumber
  >,
);

export const Show = z.object({
  key: z.string(),
  name: z.string(),
  date: z.string(),
  createdAt: z.string(),
  createdBy: z.string(),
  caseListingIds: z.array(z.string()),
});
export type Show = z.infer<typeof Show>;

export const KeptTradeIn = z.extend(TradeIn, {
  entryKey: z.string(),
  showKey: z.string(),
  showName: z.string(),
  soldAt: z.string(),
});
export type KeptTradeIn = z.infer<typeof KeptTradeIn>;
/** A listing's sale at a show, with the show's name and day. */
export const ShowSale = z.extend(LedgerEntry, { showName: z.string(), showDate: z.string() });
export type ShowSale = z.infer<typeof ShowSale>;
/** The ledger's refusal of a second sale of one listing (409). */
export const SOLD_BEFORE = 'already_sold_at_show';
