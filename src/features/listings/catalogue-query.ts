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

/** The whole catalogue as the browser holds it: rows oldest first, a new array on every change. */
export type Catalogue = Kept<ListingRead>;

/**
 * The catalogue query over the kept listings: the first fetch shows this browser's copy and reads
 * what changed, or walks every page usable as it lands; later fetches are incremental.
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
 * The catalogue pages' loader: a revisit reads the kept copy while the page's code loads; a first
 * visit's walk starts with the page instead, so its request is not charged to the largest paint.
 */
export const prefetchCatalogue: Prefetch = ({ client, queryClient }) => {
  if (keptDb()?.mayHoldCopies())
    void queryClient.prefetchQuery(catalogueQuery(client, queryClient));
};

/** Patches one kept listing unless the patch is older than the row shown; false when not kept. */
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
 * unavailable: four fields, walked once, then refreshed incrementally.
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
