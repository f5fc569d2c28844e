import type { QueryClient } from '@tanstack/react-query';
import type { Prefetch } from '../route-prefetch';
import type { ListingRead, SetAsideRecord, SlabdeskClient } from '../../client';
import { keptQuery } from '../kept/kept-query';
import { keptSource } from '../kept/kept-sources';
import type { Kept } from '../kept/kept-sync';
import { patchKeptRow } from '../kept/kept-rows';
import {
  availabilityOf,
  inventoryLevelsQuery,
  type Availability,
  type KeptLevel,
} from '../inventory/inventory-queries';
import { listingKeys } from './listing-keys';
import { prefetchViews } from '../views/view-queries';

/** The whole catalogue as the browser holds it: rows oldest first, a new array on every change. */
export type Catalogue = Kept<ListingRead>;

/** The catalogue over the kept listings: kept copy then changes, or a walk; then incremental. */
export const catalogueQuery = (client: SlabdeskClient, queryClient: QueryClient) =>
  keptQuery(queryClient, listingKeys.catalogue(), keptListings(client), 60_000);

/** The seller's listings (the list view, every field): the one kept copy of listings. */
export const keptListings = (client: SlabdeskClient) =>
  keptSource<ListingRead>(client, 'listings', 'listings');

/** The catalogue once its walk is whole (the money figures count only whole catalogues). */
export const wholeCatalogueQuery = (client: SlabdeskClient, queryClient: QueryClient) => ({
  ...catalogueQuery(client, queryClient),
  select: (catalogue: Catalogue) => (catalogue.complete ? catalogue : undefined),
});

/** Catalogue loader: the kept copy, or the hub's snapshot, is read beside the page's code. */
export const prefetchCatalogue: Prefetch = (deps) => {
  prefetchViews(deps, 'listings');
  void deps.queryClient.prefetchQuery(catalogueQuery(deps.client, deps.queryClient));
};

/** Patches one kept listing unless the patch is older than the row shown; false when not kept. */
export const updateKeptListing = (
  queryClient: QueryClient,
  id: string,
  change: (row: ListingRead) => ListingRead,
): boolean => patchKeptRow(queryClient, listingKeys.catalogue(), id, change) !== 'absent';

/** Each card's availability, by inventory item id (the card id of a listing). */
export interface CatalogueAvailability {
  byItem: Map<string, Availability>;
  setAside: SetAsideRecord[];
  syncedAt: string;
}

/** The kept levels, joined where the list view does not say why a listing is unavailable. */
export const catalogueAvailabilityQuery = (client: SlabdeskClient, queryClient: QueryClient) => ({
  ...inventoryLevelsQuery(client, queryClient),
  select: availabilityView,
});

function availabilityView(levels: Kept<KeptLevel>): CatalogueAvailability {
  const byItem = new Map<string, Availability>();
  for (const level of levels.rows) byItem.set(level.inventory_item_id, availabilityOf(level));
  return { byItem, setAside: levels.setAside, syncedAt: levels.syncedAt };
}
