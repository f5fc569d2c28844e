import { queryOptions, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { isApiError } from '../../client';
import { keptDb, type KeptDb } from './kept-db';
import { keptOptions } from './kept-persister';
import { syncKept, type Kept, type KeptFailure, type KeptSource } from './kept-sync';
import { takeSellerAsk } from './seller-asked';

/** Per QueryClient: each collection's read under way, and the last failure no data carries. */
const perClient = new WeakMap<
  QueryClient,
  { running: Map<string, Promise<Kept<never>>>; failed: Map<string, KeptFailure> }
>();

/** First wait after a failed hub read before a retry on its own; doubled per failure, capped. */
const FIRST_BACK_OFF_MS = 5_000;
const MAX_BACK_OFF_MS = 2 * 60_000;

export function backOffMs(attempts: number): number {
  return Math.min(MAX_BACK_OFF_MS, FIRST_BACK_OFF_MS * 2 ** Math.max(0, attempts - 1));
}

export interface KeptQueryOptions {
  /** Show only whole states (a kept copy, a finished walk): for pages that show no progress. */
  wholeOnly?: boolean;
  /** The kept database (tests); null keeps nothing; the browser's by default. */
  db?: KeptDb | null;
}

/** A kept collection's `queryFn`: rows shown as they land; only the seller retries early. */
export function keptQueryFn<T extends { id: string }>(
  queryClient: QueryClient,
  queryKey: QueryKey,
  source: KeptSource<T>,
  options: KeptQueryOptions = {},
): () => Promise<Kept<T>> {
  return () => {
    let maps = perClient.get(queryClient);
    if (!maps) perClient.set(queryClient, (maps = { running: new Map(), failed: new Map() }));
    const { running, failed } = maps;
    const key = JSON.stringify(queryKey);
    const shared = running.get(key) as Promise<Kept<T>> | undefined;
    if (shared) return shared;
    const asked = takeSellerAsk(key);
    const current = queryClient.getQueryData<Kept<T>>(queryKey);
    const last = current?.failure ?? failed.get(key);
    if (last && Date.now() < last.retryAt && !asked) {
      return current?.failure ? Promise.resolve(current) : Promise.reject(last.error);
    }
    // Once the sync has ended, nothing it left pending may show rows (and hide its failure).
    let ended = false;
    const sync = syncKept(source, {
      db: options.db === undefined ? keptDb() : options.db,
      fresh: asked,
      current: () => queryClient.getQueryData<Kept<T>>(queryKey),
      show: (kept) => {
        if (ended) return false;
        if (options.wholeOnly && !kept.complete) return false;
        // Before the first rows nothing is shown; after, every change is (a rebuild empties it).
        if (kept.pages === 0 && !kept.complete && !queryClient.getQueryData(queryKey)) return false;
        queryClient.setQueryData(queryKey, { ...kept, failure: undefined });
        return true;
      },
    })
      .then(
        (kept): Kept<T> => {
          failed.delete(key);
          return { ...kept, failure: undefined };
        },
        (error: unknown): Kept<T> => {
          if (isApiError(error) && error.code === 'aborted') throw error;
          const at = Date.now();
          const attempts = (last?.attempts ?? 0) + 1;
          const failure: KeptFailure = { error, at, retryAt: at + backOffMs(attempts), attempts };
          const now = queryClient.getQueryData<Kept<T>>(queryKey);
          if (now && !options.wholeOnly) return { ...now, failure };
          failed.set(key, failure);
          throw error;
        },
      )
      .finally(() => {
        ended = true;
        running.delete(key);
      });
    running.set(key, sync as Promise<Kept<never>>);
    return sync;
  };
}

/** A kept collection's query: its `queryFn`, its name in the meta, never collected. */
export const keptQuery = <T extends { id: string }, K extends QueryKey>(
  queryClient: QueryClient,
  queryKey: K,
  source: KeptSource<T>,
  staleTime: number,
  options?: KeptQueryOptions,
) =>
  queryOptions({
    queryKey,
    staleTime,
    ...keptOptions(source.collection),
    queryFn: keptQueryFn(queryClient, queryKey, source, options),
  });
