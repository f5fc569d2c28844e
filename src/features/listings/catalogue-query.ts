import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { ListingRead, SetAsideRecord, SlabdeskClient } from '../../client';
import { availabilityOf, type Availability } from './catalogue-row';
import { listingKeys } from './listing-keys';

/** The seller's whole catalogue as the browser holds it. */
export interface Catalogue {
  /** Rows of the list view (`GET /listings.json`), read field by field. */
  rows: ListingRead[];
  /** False while the first walk is still reading pages (rows so far are shown). */
  complete: boolean;
  pages: number;
  /** Degraded or unparseable records, reported by id. */
  setAside: SetAsideRecord[];
  /** The API's time the last full or incremental read started from. */
  syncedAt: string;
  /** How many rows the last incremental refresh brought back. */
  lastChanged: number | undefined;
}

/**
 * The catalogue query. The first fetch walks every page of `/listings.json` (250 a page) and
 * writes each page into the cache as it arrives, so the table fills while the walk goes on.
 * Every later fetch (refresh button, interval, a mutation's invalidation) is incremental:
 * only what changed since `syncedAt`, merged by id.
 */
export function catalogueQuery(client: SlabdeskClient, queryClient: QueryClient) {
  const queryKey = listingKeys.catalogue();
  return queryOptions({
    queryKey,
    staleTime: 60_000,
    queryFn: async ({ signal }): Promise<Catalogue> => {
      const previous = queryClient.getQueryData<Catalogue>(queryKey);
      if (previous?.complete) {
        const result = await client.listings.refresh(previous, { signal, priority: 'background' });
        return {
          rows: result.rows,
          complete: true,
          pages: previous.pages,
          setAside: dedupeSetAside([...previous.setAside, ...result.setAside]),
          syncedAt: result.syncedAt,
          lastChanged: result.changed.length,
        };
      }
      let baseline = client.transport.serverNow();
      const rows: ListingRead[] = [];
      const setAside: SetAsideRecord[] = [];
      let pages = 0;
      for await (const page of client.listings.pages({ signal, limit: 250 })) {
        if (pages === 0 && page.meta.serverDate !== undefined) {
          baseline = Math.min(baseline, page.meta.serverDate - 1000);
        }
        pages++;
        rows.push(...page.rows);
        setAside.push(...page.setAside);
        queryClient.setQueryData<Catalogue>(queryKey, {
          rows: rows.slice(),
          complete: false,
          pages,
          setAside: setAside.slice(),
          syncedAt: new Date(baseline).toISOString(),
          lastChanged: undefined,
        });
      }
      return {
        rows,
        complete: true,
        pages,
        setAside,
        syncedAt: new Date(baseline).toISOString(),
        lastChanged: undefined,
      };
    },
  });
}

function dedupeSetAside(records: SetAsideRecord[]): SetAsideRecord[] {
  const seen = new Set<string>();
  return records.filter((record) => {
    const key = record.id ?? `${record.kind}:${record.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
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
