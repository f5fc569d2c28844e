import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { Prefetch } from '../../lib/route-prefetch';
import type { ListingRead, SetAsideRecord, SlabdeskClient } from '../../client';
import { keptDb } from '../../lib/kept/kept-db';
import { keptOptions } from '../../lib/kept/kept-persister';
import { keptQueryFn } from '../../lib/kept/kept-query';
import { keptListings } from '../../lib/kept/kept-sources';
import type { Kept } from '../../lib/kept/kept-sync';
import { isOlder } from '../../lib/kept/newest';
import { availabilityOf, type Availability } from './catalogue-row';
import { listingKeys } from './listing-keys';

/**
 * The seller's whole catalogue as the browser holds it (see kept-sync): rows oldest first, a new
 * array on every change (a page of a walk, a live patch, an incremental read).
 */
export type Catalogue = Kept<ListingRead>;

/**
 * The catalogue query, over the kept listings. The first fetch shows the copy kept in this
 * browser (this key's, this store's) and reads what changed since, or walks every page of
 * `/listings.json` (250 a page) with each page usable as it lands. Every later fetch (refresh
 * button, interval, a mutation's invalidation) is incremental: only what changed since
 * `syncedAt`, merged by id.
 */
export function catalogueQuery(client: SlabdeskClient, queryClient: QueryClient) {
  const queryKey = listingKeys.catalogue();
  return queryOptions({
    queryKey,
    staleTime: 60_000,
    ...keptOptions('listings'),
    queryFn: keptQueryFn(queryClient, queryKey, keptListings(client, queryClient)),
  });
}

/**
 * The catalogue pages' loader (listings, bulk edit). On a revisit, the kept copy is read from
 * this browser while the page's code loads, and brought up to date from there. A first visit's
 * walk starts with the page instead: started here, its first page lands before the page's frame
 * is drawn and Lighthouse's simulated load charges the walk's request to the largest paint.
 */
export const prefetchCatalogue: Prefetch = ({ client, queryClient }) => {
  if (keptDb()?.mayHoldCopies())
    void queryClient.prefetchQuery(catalogueQuery(client, queryClient));
};

/**
 * Patches one kept listing (a live update or a landed write) unless the patched row is older than
 * the one shown (`updated_at`); false when it is not kept.
 */
export function updateKeptListing(
  queryClient: QueryClient,
  id: string,
  change: (row: ListingRead) => ListingRead,
): boolean {
  const catalogue = queryClient.getQueryData<Catalogue>(listingKeys.catalogue());
  const at = catalogue?.rows.findIndex((row) => row.id === id) ?? -1;
  if (!catalogue || at < 0) return false;
  const next = change(catalogue.rows[at]!);
  // Newest wins: a delivery or an answer older than the row shown changes nothing.
  if (isOlder(next, catalogue.rows[at])) return true;
  const rows = catalogue.rows.slice();
  rows[at] = next;
  queryClient.setQueryData<Catalogue>(listingKeys.catalogue(), { ...catalogue, rows });
  return true;
}

/** Each card's availability, by inventory item id (the card id of a listing). */
export interface CatalogueAvailability {
  byItem: Map<string, Availability>;
  setAside: SetAsideRecord[];
  syncedAt: string;
}

/**
 * The inventory levels the catalogue joins when the list view does not say why a listing is
 * unavailable (the spec does not document `unavailable_reason` there): only the four fields the
 * join needs, walked once and then refreshed incrementally like the catalogue.
 */
export function catalogueAvailabilityQuery(client: SlabdeskClient, queryClient: QueryClient) {
  const queryKey = listingKeys.availability();
  const fields = [
    'inventory_item_id',
    'available',
    'svc_unavailable_reason',
    'svc_can_reactivate',
  ] as const;
  return queryOptions({
    queryKey,
    staleTime: 60_000,
    queryFn: async ({ signal }): Promise<CatalogueAvailability> => {
      const previous = queryClient.getQueryData<CatalogueAvailability>(queryKey);
      const snapshot = previous
        ? await client.inventoryLevels.refresh(
            { rows: [], syncedAt: previous.syncedAt },
            { signal, fields, priority: 'background' },
          )
        : await client.inventoryLevels.loadAll({ signal, fields });
      const byItem = new Map(previous?.byItem);
      for (const level of snapshot.rows) {
        byItem.set(level.inventory_item_id, availabilityOf(level));
      }
      return { byItem, setAside: snapshot.setAside, syncedAt: snapshot.syncedAt };
    },
  });
}
