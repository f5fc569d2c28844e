import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { newIdempotencyKey, type ListingRead, type SlabdeskClient } from '../../client';
import { useApiClient } from '../api-context';
import { keptAnswer, readKept, writeKept } from '../local-store';
import { outbox, useOutboxItems, type NewOutboxItem, type SaleWrite } from '../outbox/outbox';
import { syncOutbox } from '../outbox/outbox-sync';
import { NO_TOTALS } from '../../shared/show-tenders';
import { entryOfWrite } from './sale-tenders';
import {
  fetchShow,
  postVoidSale,
  type TenderBody,
  fetchShowSale,
  fetchShows,
  fetchTradeIns,
  putShowCase,
  type LedgerEntry,
  type ShowPage,
  type ShowSummary,
} from './show-api';
import { showKeys } from './show-keys';
import type { Prefetch } from '../route-prefetch';
import { prefetchCatalogue } from '../listings/catalogue-query';
import { keptDb } from '../kept/kept-db';

/** The shows as last read, kept in this browser so the table works with no network. */
const SHOWS_KEPT = 'slabdesk-shows';
/** The ledgers of the shows last opened here, newest first, each with when it was read. */
const LEDGERS_KEPT = 'slabdesk-show-ledgers';
/** Ledgers kept: the shows of a weekend, not every show ever opened here. */
const LEDGERS_KEPT_MAX = 6;

interface KeptLedger {
  /** When the server answered it (ms since the epoch). */
  readAt: number;
  page: ShowPage;
}

const keptLedger = (key: string): KeptLedger | undefined =>
  readKept<KeptLedger[]>(LEDGERS_KEPT)?.find((kept) => kept.page.show.key === key);

function keepLedger(page: ShowPage): void {
  const others = (readKept<KeptLedger[]>(LEDGERS_KEPT) ?? []).filter(
    (kept) => kept.page.show.key !== page.show.key,
  );
  // The case's rows are the kept catalogue's to keep (a case of hundreds would fill the storage).
  const kept = { readAt: Date.now(), page: { ...page, caseListings: [] } };
  writeKept(LEDGERS_KEPT, [kept, ...others].slice(0, LEDGERS_KEPT_MAX));
}

export const showsQuery = (client: SlabdeskClient) =>
  queryOptions({
    queryKey: showKeys.lists(),
    ...keptAnswer(SHOWS_KEPT, (signal) => fetchShows(client, signal)),
    staleTime: 10_000,
    retry: false,
  });

/** A show's ledger, kept as last read (offline, the show page starts from it). */
export const showQuery = (client: SlabdeskClient, key: string) =>
  queryOptions<ShowPage>({
    queryKey: showKeys.detail(key),
    queryFn: async ({ signal }) => {
      const page = await fetchShow(client, key, signal);
      keepLedger(page);
      return page;
    },
    initialData: () => keptLedger(key)?.page,
    initialDataUpdatedAt: () => keptLedger(key)?.readAt,
    staleTime: 5_000,
    retry: false,
  });

/** A show page's loader: its ledger beside the page's code, the kept catalogue on a revisit. */
export const prefetchShow: Prefetch = (deps, args) => {
  void deps.queryClient.prefetchQuery(showQuery(deps.client, args.params.showKey ?? ''));
  // The hub's whole snapshot waits until the case is drawn (the show page asks for it then).
  if (keptDb()?.mayHoldCopies()) prefetchCatalogue(deps, args);
};

export const tradeInsQuery = (client: SlabdeskClient) =>
  queryOptions({
    queryKey: showKeys.tradeIns(),
    queryFn: ({ signal }) => fetchTradeIns(client, signal),
    staleTime: 30_000,
    retry: false,
  });

/** A slab's sale at a show, as the counter says it (its `key`: the receipt's number). */
export type SoldAtShow = Pick<
  LedgerEntry,
  'key' | 'showKey' | 'soldAt' | 'priceCents' | 'discountCents' | 'tenders'
> & {
  /** Null when this device does not know the show's name (not in its kept list). */
  showName: string | null;
  /** In the ledger (undoable); else this device's sale, waiting in the outbox. */
  recorded: boolean;
};

/** Where a slab stands as a sale at a show: the ledger's word, then this device's outbox. */
export interface SlabShowSale {
  /** What to say: the ledger's sale, else this device's own (not one the ledger refused). */
  sale: SoldAtShow | undefined;
  /** This device's sale of it in the outbox, in any state (not one undone since). */
  write: SaleWrite | undefined;
  /** Sold at a show: no second sale, no new price, no reactivation. */
  sold: boolean;
}

/** A slab's sale at any show: the ledger's, or one this device made; undone sales are forgotten. */
export function useShowSale(listingId: string, look = true): SlabShowSale {
  const client = useApiClient();
  const sales = useOutboxItems().filter(
    (item): item is SaleWrite => item.kind === 'sell-at-show' && item.listingId === listingId,
  );
  // This device sold it: the ledger is asked too (it may have undone that sale since).
  const ledger = useQuery({
    queryKey: showKeys.sale(listingId),
    queryFn: ({ signal }) => fetchShowSale(client, listingId, signal),
    staleTime: 5_000,
    retry: false,
    enabled: look || sales.length > 0,
  });
  const shows = useQuery(showsQuery(client));
  const voided = new Set(ledger.data?.voidedKeys);
  const write = sales.findLast((item) => !voided.has(item.sale.key));
  const entry = ledger.data?.sale;
  const mine = write && write.state !== 'dropped' && write.state !== 'failed' ? write : undefined;
  // The ledger's sale, else this device's own (sent and recorded, the answer not read: undoable).
  const known = mine && mine.soldBefore === undefined ? entryOfWrite(mine) : undefined;
  const from = entry ?? known;
  const sale: SoldAtShow | undefined = from && {
    ...from,
    showName: entry
      ? entry.showName
      : (shows.data?.find((show) => show.key === from.showKey)?.name ?? null),
    recorded: entry ? true : mine?.state === 'done',
  };
  return { sale, write, sold: entry != null || mine !== undefined };
}

/** Thrown when an undo is tried with no network: it is refused, never queued. */
export class UndoNeedsNetwork extends Error {
  constructor() {
    super(
      'Undoing a sale needs the connection: the ledger must free the slab before it is sold again. Try again when you are back online.',
    );
  }
}

/** Undoes a sale at once or not at all: never queued, so no slab is sold twice. */
export function useVoidSale() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    // Run even offline, to refuse plainly at once (the default would hold it until online).
    networkMode: 'always',
    mutationFn: async (sale: { showKey: string; entryKey: string; reason: string | null }) => {
      if (typeof navigator !== 'undefined' && navigator.onLine === false) {
        throw new UndoNeedsNetwork();
      }
      return postVoidSale(client, sale.showKey, sale.entryKey, sale.reason);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: showKeys.all() }),
  });
}

/** Queues a write in the outbox and starts sending it (at once when online). */
function useQueueWrite() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return async (item: NewOutboxItem) => {
    await outbox().add(item);
    void syncOutbox(client, queryClient);
  };
}

/** The day in the browser's zone, as YYYY-MM-DD. */
export function today(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Starts a show (through the outbox: a hall with no network still gets its show). */
export function useStartShow() {
  const queryClient = useQueryClient();
  const queue = useQueueWrite();
  return async (name: string, date: string): Promise<string> => {
    const key = newIdempotencyKey();
    const show = { key, name, date };
    // Shown at once, and kept, so the sale made next (maybe offline) can name it.
    const summary: ShowSummary = {
      ...show,
      createdAt: new Date().toISOString(),
      createdBy: '',
      caseListingIds: [],
      totals: NO_TOTALS,
    };
    const shows = [summary, ...(queryClient.getQueryData<ShowSummary[]>(showKeys.lists()) ?? [])];
    queryClient.setQueryData(showKeys.lists(), shows);
    writeKept(SHOWS_KEPT, shows);
    await queue({ kind: 'create-show', label: `Start show “${name}”`, show });
    return key;
  };
}

/** What the seller fills in at the table (money as "12.50"). */
export interface SaleForm {
  showKey: string;
  /** What the buyer pays, after the discount. */
  price: string;
  /** Taken off the asking price, when any. */
  discount: string | null;
  /** Adding up to the price. */
  tenders: TenderBody[];
  cost: string | null;
}

/** Sold here: queued with keys fixed now, sent at once if online; answers its receipt key. */
export function useSellAtShow() {
  const queue = useQueueWrite();
  return async (listing: ListingRead, form: SaleForm): Promise<string> => {
    const title = listing.title ?? listing.card?.title ?? 'Card';
    const key = newIdempotencyKey();
    await queue({
      kind: 'sell-at-show',
      label: `Sold here: ${title}`,
      listingId: listing.id,
      showKey: form.showKey,
      deactivateKey: newIdempotencyKey(),
      listingUpdatedAt: listing.updated_at ?? null,
      sale: {
        key,
        soldAt: new Date().toISOString(),
        listingId: listing.id,
        title,
        certNumber: listing.card?.cert_number ?? null,
        grader: listing.card?.grader ?? null,
        price: form.price,
        ...(form.discount ? { discount: form.discount } : {}),
        tenders: form.tenders,
        cost: form.cost,
      },
    });
    return key;
  };
}

/** A new price set at the table: through the outbox, checked against the listing when sent. */
export function useSetPriceAtShow() {
  const queue = useQueueWrite();
  return (listing: ListingRead, price: string): Promise<void> =>
    queue({
      kind: 'set-price',
      label: `New price for ${listing.title ?? 'a listing'}`,
      listingId: listing.id,
      price,
      fromPrice: listing.price ?? '',
      listingUpdatedAt: listing.updated_at ?? null,
      idempotencyKey: newIdempotencyKey(),
    });
}

/** "Bring these to the show": the listings marked as the show's case. */
export function useSetShowCase(showKey: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (listingIds: string[]) => putShowCase(client, showKey, listingIds),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: showKeys.all() }),
  });
}
