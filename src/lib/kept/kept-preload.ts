import { pingQuery } from '../connection-query';
import type { Prefetch } from '../route-prefetch';
import { keptSources, type KeptSources } from './kept-sources';

/**
 * A route loader's head start on kept collections: this browser's copies are read from
 * IndexedDB and the /ping (whose key and mode decide whether a copy may be shown) is asked,
 * while the page's code chunk loads. No collection request is sent: the page's own query does
 * that, and finds the copy read.
 */
export const preloadKept =
  (
    collections: readonly (keyof KeptSources)[],
    when: (url: URL) => boolean = () => true,
  ): Prefetch =>
  ({ client, queryClient }, { request }) => {
    if (!when(new URL(request.url))) return;
    const kept = keptSources(client, queryClient);
    for (const name of collections) kept[name].preload();
    void queryClient.prefetchQuery(pingQuery(client));
  };
