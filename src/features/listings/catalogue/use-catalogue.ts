import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import type { ListingRead } from '../../../client';
import type { Availability } from '../../../api/inventory/inventory-queries';
import {
  needsOwnReason,
  sharedCardsOf,
  useOwnReasons,
  type OwnReason,
} from '../../../api/listings/listing-reason';
import { useApiClient } from '../../../api/api-context';
import { useAfterFirstReads } from '../../../api/first-reads';
import { usePollInterval } from '../../../api/live/live-context';
import { catalogueAvailabilityQuery, catalogueQuery } from '../../../api/listings/catalogue-query';
import { ordersQuery } from '../../../api/orders/order-queries';
import { sameIds, soldListingIds } from '../../../api/sales/sold-listings';
import {
  fillSearchTexts,
  needsAvailability,
  toCatalogueRow,
  type CatalogueRow,
} from './catalogue-row';

/** The catalogue rows derived so far: re-derived only where the listing object changed. */
interface Derived {
  from: (ListingRead | undefined)[];
  /** The rows as derived so far (never handed out: each change hands out a copy). */
  work: CatalogueRow[];
  byItem: ReadonlyMap<string, Availability> | undefined;
  sold: ReadonlySet<string> | undefined;
  shared: ReadonlySet<string> | undefined;
  own: ReadonlyMap<string, OwnReason> | undefined;
}

/** The last derivation (one catalogue per page): a remount derives only what changed since. */
let last: Derived = {
  from: [],
  work: [],
  byItem: undefined,
  sold: undefined,
  shared: undefined,
  own: undefined,
};

/** Catalogue rows from the kept listings, each converted once; a new array per change. */
function derive(
  listings: readonly ListingRead[],
  byItem: ReadonlyMap<string, Availability> | undefined,
  sold: ReadonlySet<string> | undefined,
  shared: ReadonlySet<string> | undefined,
  own: ReadonlyMap<string, OwnReason> | undefined,
): CatalogueRow[] {
  if (last.byItem !== byItem || last.sold !== sold || last.shared !== shared || last.own !== own)
    last = { from: [], work: [], byItem, sold, shared, own };
  const { from, work } = last;
  for (let i = 0; i < listings.length; i++) {
    const listing = listings[i]!;
    if (from[i] === listing) continue;
    from[i] = listing;
    work[i] = toCatalogueRow(listing, { byItem, sharedCards: shared, own }, sold);
  }
  from.length = listings.length;
  work.length = listings.length;
  return work.slice();
}

/** The last sold set handed out: kept while a refresh of the orders leaves the same ids. */
let lastSold: ReadonlySet<string> | undefined;

/** The sold listing ids from the orders; the same set (and rows) while the ids stay the same. */
function soldOf(orders: Parameters<typeof soldListingIds>[0]): ReadonlySet<string> {
  const next = soldListingIds(orders);
  if (!lastSold || !sameIds(lastSold, next)) lastSold = next;
  return lastSold;
}

/** The last shared-card set handed out: kept while the cards held by several listings stay the same. */
let lastShared: ReadonlySet<string> | undefined;

function sameShared(next: ReadonlySet<string>): ReadonlySet<string> {
  if (!lastShared || !sameIds(lastShared, next)) lastShared = next;
  return lastShared;
}

/** The catalogue, its rows and its query state, with inventory levels joined when needed. */
export function useCatalogue(options: { enabled?: boolean } = {}) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  // Webhooks push changes while the server's stream is healthy; otherwise a minute's poll.
  const poll = usePollInterval(60_000);
  const query = useQuery({
    ...catalogueQuery(client, queryClient),
    enabled: options.enabled ?? true,
    // Incremental (only what changed since the last read), so a minute's poll is cheap.
    refetchInterval: poll,
  });
  const listings = query.data?.rows;
  const needsJoin = useMemo(() => (listings ?? []).some(needsAvailability), [listings]);
  const availability = useQuery({
    ...catalogueAvailabilityQuery(client, queryClient),
    enabled: (options.enabled ?? true) && query.data?.complete === true && needsJoin,
  });
  // Each listings read re-reads the levels after it, so a sale without a webhook reads "sold".
  const checkedAt = query.data?.complete ? query.data.checkedAt : undefined;
  const levelsFor = useRef(checkedAt);
  const levelsOwed = useRef(false);
  const refetchLevels = availability.refetch;
  const levelsHeld = availability.data !== undefined;
  const levelsReading = availability.isFetching;
  useEffect(() => {
    if (checkedAt !== undefined && checkedAt !== levelsFor.current) {
      levelsOwed.current = levelsFor.current !== undefined;
      levelsFor.current = checkedAt;
    }
    if (!levelsOwed.current || levelsReading) return;
    // With no levels held yet, their first read comes after this one and is fresh anyway.
    levelsOwed.current = false;
    if (levelsHeld && needsJoin) void refetchLevels();
  }, [checkedAt, levelsHeld, levelsReading, needsJoin, refetchLevels]);
  const byItem = availability.data?.byItem;
  // What the rows can be drawn without waits for them: its reads never go before theirs.
  const afterRows = useAfterFirstReads(queryClient) && query.data?.complete === true;
  // Which listings sold, from the kept orders (one walk with margins), after the catalogue's share.
  const orders = useQuery({
    ...ordersQuery(client, queryClient),
    enabled: (options.enabled ?? true) && afterRows,
  });
  const orderRows = orders.data?.rows;
  const sold = useMemo(() => (orderRows ? soldOf(orderRows) : undefined), [orderRows]);
  // A relisted card's one level speaks of the newest listing: older ones read their single view.
  const shared = useMemo(() => sameShared(sharedCardsOf(listings ?? [])), [listings]);
  const ownIds = useMemo(
    () => (listings ?? []).filter((l) => needsOwnReason(l, shared)).map((l) => l.id),
    [listings, shared],
  );
  const own = useOwnReasons(ownIds, (options.enabled ?? true) && query.data?.complete === true);
  const rows = useMemo(
    () => derive(listings ?? [], byItem, sold, shared, own),
    [listings, byItem, sold, shared, own],
  );
  // The search texts, in idle moments once the rows are shown (a search builds what is missing).
  useEffect(() => fillSearchTexts(rows), [rows]);
  // Without the list view's reasons, a sale is known from the levels' `sold` or from the orders.
  const soldKnown = !needsJoin || orders.isSuccess || orders.isError;
  return { query, rows, availability: needsJoin ? availability : undefined, soldKnown, afterRows };
}
