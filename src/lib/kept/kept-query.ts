import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { KeptCollection, KeptSnapshot } from './kept-collection';

const linked = new WeakMap<object, Set<string>>();

/**
 * Keeps a query's data following a kept collection: every change of the collection (a page of a
 * walk, a live update, a landed write) is written into the query's cache as `map(snapshot)`, so
 * the page shows rows as they land and patches without a read. Linked once per collection and key.
 */
export function linkKept<T extends { id: string }, D>(
  queryClient: QueryClient,
  queryKey: QueryKey,
  kept: KeptCollection<T>,
  map: (snapshot: KeptSnapshot<T>) => D,
  /** Only whole snapshots (a kept copy, a finished walk): for pages that show no progress. */
  options: { wholeOnly?: boolean } = {},
): void {
  const hash = JSON.stringify(queryKey);
  let keys = linked.get(kept);
  if (!keys) {
    keys = new Set();
    linked.set(kept, keys);
  }
  if (keys.has(hash)) return;
  keys.add(hash);
  kept.subscribe(() => {
    // Before the first rows nothing is shown; after, every change is (a rebuild empties it).
    if (!kept.loaded && queryClient.getQueryData(queryKey) === undefined) return;
    if (options.wholeOnly && !kept.snapshot().complete) return;
    queryClient.setQueryData(queryKey, map(kept.snapshot()));
  });
}
