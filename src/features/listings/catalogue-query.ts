import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { Product, SetAsideRecord, SlabdeskClient } from '../../client';
import { listingKeys } from './listing-keys';

/** The seller's whole catalogue as the browser holds it. */
export interface Catalogue {
  rows: Product[];
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
 * The catalogue query. The first fetch walks every page of `/products.json` (250 a page) and
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
        const result = await client.products.refresh(previous, { signal });
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
      const rows: Product[] = [];
      const setAside: SetAsideRecord[] = [];
      let pages = 0;
      for await (const page of client.products.pages({ signal, limit: 250 })) {
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
