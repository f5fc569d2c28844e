import * as z from 'zod/mini';
import type { SlabdeskClient } from '../../client';
import { callServer, serverUrl, type ServerCallOptions } from '../server-call';
import { NO_TOTALS, TENDER_KINDS, type ShowTotals } from '../../shared/show-tenders';

export type { ShowTotals };

/** Our server's show ledger (`/hub/shows`): shows, sales, case and trades; a 404 means none. */

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
const ShowTotalsAnswer = z.object(
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

const ShowList = z.object({ shows: z.array(z.extend(Show, { totals: ShowTotalsAnswer })) });
export type ShowSummary = z.infer<typeof ShowList>['shows'][number];
const ShowPage = z.object({ show: Show, entries: z.array(LedgerEntry), totals: ShowTotalsAnswer });
export type ShowPage = z.infer<typeof ShowPage>;
const KeptTradeIn = z.extend(TradeIn, {
  entryKey: z.string(),
  showKey: z.string(),
  showName: z.string(),
  soldAt: z.string(),
});
export type KeptTradeIn = z.infer<typeof KeptTradeIn>;
const TradeInList = z.object({ tradeIns: z.array(KeptTradeIn) });
/** A listing's sale at a show, with the show's name and day. */
const ShowSale = z.extend(LedgerEntry, { showName: z.string(), showDate: z.string() });
export type ShowSale = z.infer<typeof ShowSale>;
/** The listing's standing sale, and the keys of its sales undone (a phone forgets its own). */
const ShowSaleAnswer = z.object({ sale: z.nullable(ShowSale), voidedKeys: z.array(z.string()) });
export type ShowSaleAnswer = z.infer<typeof ShowSaleAnswer>;

/** One way the buyer paid, as sent (money as "12.50"). */
export type TenderBody =
  | { kind: 'cash' | 'card'; amount: string }
  | { kind: 'other'; amount: string; note: string }
  | {
      kind: 'trade';
      amount: string;
      title: string;
      certNumber: string | null;
      grader: string | null;
    };

/** What the browser sends for one sale (money as "12.50"); `key` made when the sale was made. */
export interface SaleBody {
  key: string;
  soldAt: string;
  listingId: string;
  title: string;
  certNumber: string | null;
  grader: string | null;
  /** What the buyer paid, after the discount. */
  price: string;
  /** Taken off the asking price. */
  discount?: string;
  /** Adding up to the price. Absent only in sales queued before tenders (`tradeIn`, the rest cash). */
  tenders?: TenderBody[];
  tradeIn?: {
    title: string;
    certNumber: string | null;
    grader: string | null;
    value: string;
  } | null;
  cost: string | null;
  soldOnline: boolean;
  offMarket: 'deactivated' | 'sold_online' | 'not_taken_off';
  note: string | null;
}

export const SHOWS_PATH = '/hub/shows';
/** The ledger's refusal of a second sale of one listing (409). */
export const SOLD_BEFORE = 'already_sold_at_show';
export const showPath = (key: string) => `${SHOWS_PATH}/${encodeURIComponent(key)}`;
export const showCsvPath = (key: string) => `${showPath(key)}/ledger.csv`;

/** Thrown when the server keeps no show ledger (404 `shows_off`). */
export class ShowsUnavailable extends Error {
  constructor() {
    super('This server keeps no show ledger.');
  }
}

function call<T>(
  client: SlabdeskClient,
  schema: z.ZodMiniType<T>,
  path: string,
  options: Omit<ServerCallOptions, 'unavailable'> = {},
): Promise<T> {
  return callServer(client, schema, path, {
    ...options,
    unavailable: (status, code) =>
      status === 404 && code === 'shows_off' ? new ShowsUnavailable() : undefined,
  });
}

export const fetchShows = (client: SlabdeskClient, signal?: AbortSignal) =>
  call(client, ShowList, SHOWS_PATH, { signal }).then((list) => list.shows);

export const fetchShow = (client: SlabdeskClient, key: string, signal?: AbortSignal) =>
  call(client, ShowPage, showPath(key), { signal });

export const fetchTradeIns = (client: SlabdeskClient, signal?: AbortSignal) =>
  call(client, TradeInList, '/hub/trade-ins', { signal }).then((l) => l.tradeIns);

/** The listing's standing sale at any show of this server (or null), and its sales undone. */
export const fetchShowSale = (client: SlabdeskClient, listingId: string, signal?: AbortSignal) =>
  call(
    client,
    ShowSaleAnswer,
    `/hub/show-sales?${new URLSearchParams({ listing: listingId }).toString()}`,
    { signal },
  );

export const postShow = (
  client: SlabdeskClient,
  show: { key: string; name: string; date: string },
) => call(client, z.object({ show: Show }), SHOWS_PATH, { method: 'POST', body: show });

export const postSale = (client: SlabdeskClient, showKey: string, sale: SaleBody) =>
  call(client, z.object({ entry: LedgerEntry }), `${showPath(showKey)}/entries`, {
    method: 'POST',
    body: sale,
  }).then((answer) => answer.entry);

/** Undoes a sale of the show (a second undo answers the same). */
export const postVoidSale = (
  client: SlabdeskClient,
  showKey: string,
  entryKey: string,
  reason: string | null,
) =>
  call(
    client,
    z.object({ entry: LedgerEntry }),
    `${showPath(showKey)}/entries/${encodeURIComponent(entryKey)}/void`,
    { method: 'POST', body: { reason } },
  ).then((answer) => answer.entry);

export const putShowCase = (client: SlabdeskClient, showKey: string, listingIds: string[]) =>
  call(client, z.object({ show: Show }), `${showPath(showKey)}/case`, {
    method: 'PUT',
    body: { listingIds },
  }).then((answer) => answer.show);

/** A show's CSV for the books, on the origin the client talks to, its times in this zone. */
export function showCsvUrl(client: SlabdeskClient, key: string): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return serverUrl(client, showCsvPath(key), new URLSearchParams({ tz: zone }));
}
