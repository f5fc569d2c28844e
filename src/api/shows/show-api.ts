import * as z from 'zod/mini';
import type { SlabdeskClient } from '../../client';
import { callServer, serverUrl, type ServerCallOptions } from '../server-call';
import {
  KeptTradeIn,
  LedgerEntry,
  Show,
  ShowSale,
  ShowTotalsAnswer,
  SOLD_BEFORE,
} from '../../shared/show-ledger';
import type { ShowTotals } from '../../shared/show-tenders';
import type { NewEntry, TenderBody as TenderBodySchema } from '../../shared/show-bodies';

export type { ShowTotals };
export { KeptTradeIn, LedgerEntry, Show, ShowSale, SOLD_BEFORE };

/** Our server's show ledger (`/hub/shows`): shows, sales, case and trades; a 404 means none. */

const ShowList = z.object({ shows: z.array(z.extend(Show, { totals: ShowTotalsAnswer })) });
export type ShowSummary = z.infer<typeof ShowList>['shows'][number];
const ShowPage = z.object({
  show: Show,
  entries: z.array(LedgerEntry),
  totals: ShowTotalsAnswer,
  /** The case's listings as the hub's replica holds them (records, as its change feed sends). */
  caseListings: z._default(z.array(z.record(z.string(), z.unknown())), []),
});
export type ShowPage = z.infer<typeof ShowPage>;
const TradeInList = z.object({ tradeIns: z.array(KeptTradeIn) });
/** The listing's standing sale, and the keys of its sales undone (a phone forgets its own). */
const ShowSaleAnswer = z.object({ sale: z.nullable(ShowSale), voidedKeys: z.array(z.string()) });
export type ShowSaleAnswer = z.infer<typeof ShowSaleAnswer>;

/** One way the buyer paid, as sent (money as "12.50"). */
export type TenderBody = z.input<typeof TenderBodySchema>;
/** What the browser sends for one sale (money as "12.50"); `key` made when the sale was made. */
export type SaleBody = z.input<typeof NewEntry>;

export const SHOWS_PATH = '/hub/shows';
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
