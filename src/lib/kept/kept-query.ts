import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { keptDb, type KeptDb } from './kept-db';
import { syncKept, type Kept, type KeptSource } from './kept-sync';

/** The walk of each collection under way, per QueryClient (see keptQueryFn). */
const inFlight = new WeakMap<QueryClient, Map<string, Promise<Kept<never>>>>();

export interface KeptQueryOptions {
  /** Show only whole states (a kept copy, a finished walk): for pages that show no progress. */
  wholeOnly?: boolean;
  /** The kept database (tests); null keeps nothing; the browser's by default. */
  db?: KeptDb | null;
}

/**
 * The `queryFn` of a kept collection: the query owns the rows (immutable; see kept-sync), and
 * this reads the kept copy or the API into it, showing the rows as they land. An invalidation
 * during a walk cancels the query's fetch, not the walk: the new fetch joins the same walk (the
 * query's signal is not the walk's, which serves every fetch of the collection).
 */
export function keptQueryFn<T extends { id: string }>(
  queryClient: QueryClient,
  queryKey: QueryKey,
  source: KeptSource<T>,
  options: KeptQueryOptions = {},
): () => Promise<Kept<T>> {
  return () => {
    let running = inFlight.get(queryClient);
    if (!running) inFlight.set(queryClient, (running = new Map()));
    const key = JSON.stringify(queryKey);
    const shared = running.get(key) as Promise<Kept<T>> | undefined;
    if (shared) return shared;
    const sync = syncKept(source, {
      db: options.db === undefined ? keptDb() : options.db,
      current: () => queryClient.getQueryData<Kept<T>>(queryKey),
      show: (kept) => {
        if (options.wholeOnly && !kept.complete) return false;
        // Before the first rows nothing is shown; after, every change is (a rebuild empties it).
        if (kept.pages === 0 && !kept.complete && !queryClient.getQueryData(queryKey)) return false;
        queryClient.setQueryData(queryKey, kept);
        return true;
      },
    }).finally(() => running.delete(key));
    running.set(key, sync as Promise<Kept<never>>);
    return sync;
  };
}
