import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { isApiError, type SlabdeskClient } from '../../client';
import type { ViewTable } from '../../shared/saved-views';
import { useApiClient } from '../api-context';
import type { RouteDeps } from '../route-prefetch';
import { keptAnswer, localStore, readKept, writeKept } from '../local-store';
import { deleteView, fetchViews, isViewList, putView, type SavedView } from './view-api';

export type { SavedView };

/** The saved views' one query-key factory. */
export const viewKeys = {
  all: () => ['saved-views'] as const,
  list: (table: ViewTable) => [...viewKeys.all(), table] as const,
};

/** Where this browser kept a table's views before the server did. */
const KEPT_HERE = (table: ViewTable) => `slabdesk.views.v1.${table}`;

/**
 * Views kept in this browser before are sent to the server once (a name the server has keeps the
 * server's), then dropped here; one that could not be sent for want of a network waits here.
 */
async function moveKeptViews(client: SlabdeskClient, table: ViewTable, onServer: SavedView[]) {
  const kept = readKept<unknown>(KEPT_HERE(table));
  if (!Array.isArray(kept)) return onServer;
  const names = new Set(onServer.map((view) => view.name));
  let views = onServer;
  const waiting: SavedView[] = [];
  for (const view of kept as Partial<SavedView>[]) {
    const { name, search } = view ?? {};
    if (typeof name !== 'string' || typeof search !== 'string' || names.has(name.trim())) continue;
    try {
      views = await putView(client, table, { name: name.trim(), search });
      names.add(name.trim());
    } catch (error) {
      if (!isApiError(error) || error.status === 0) waiting.push({ name, search });
    }
  }
  if (waiting.length > 0) writeKept(KEPT_HERE(table), waiting);
  else localStore()?.removeItem(KEPT_HERE(table));
  return views;
}

/** The table's views as last read here: the next visit draws them at once, and reads anew. */
const LAST_READ = (table: ViewTable) => `slabdesk.views.read.${table}`;

export const savedViewsQuery = (client: SlabdeskClient, table: ViewTable) =>
  queryOptions({
    queryKey: viewKeys.list(table),
    ...keptAnswer(
      LAST_READ(table),
      async (signal) => moveKeptViews(client, table, await fetchViews(client, table, signal)),
      isViewList,
    ),
    // Back on this tab: a view saved on another device since shows.
    refetchOnWindowFocus: true,
  });

/** Starts a table's saved views beside the page's reads: they are drawn above its list. */
export const prefetchViews = ({ client, queryClient }: RouteDeps, table: ViewTable) =>
  void queryClient.prefetchQuery(savedViewsQuery(client, table));

/** The longest a list waits for its views' first read (a network that answers nothing). */
export const VIEWS_WAIT_MS = 2_000;

/**
 * False only while the first read of a table's views on this device is on its way, for at most
 * `VIEWS_WAIT_MS`: the list under them waits, as views that came after its rows would wrap their
 * row on a phone and push them down. Kept from a visit before, offline (the read paused) or
 * failed once, the list is drawn at once.
 */
export function useViewsRead(table: ViewTable): boolean {
  const query = useQuery(savedViewsQuery(useApiClient(), table));
  const waiting = query.isPending && query.fetchStatus === 'fetching' && query.failureCount === 0;
  const [outwaited, setOutwaited] = useState(false);
  useEffect(() => {
    if (!waiting) return undefined;
    const timer = setTimeout(() => setOutwaited(true), VIEWS_WAIT_MS);
    return () => clearTimeout(timer);
  }, [waiting]);
  return !waiting || outwaited;
}

/** A table's saved views (the account's, on every device), and saving and deleting one. */
export function useSavedViews(table: ViewTable) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const query = useQuery(savedViewsQuery(client, table));
  const settle = (views: SavedView[]) => {
    writeKept(LAST_READ(table), views);
    queryClient.setQueryData(viewKeys.list(table), views);
  };
  const save = useMutation({
    mutationFn: (view: SavedView) => putView(client, table, view),
    onSuccess: settle,
  });
  const remove = useMutation({
    mutationFn: (name: string) => deleteView(client, table, name),
    onSuccess: settle,
  });
  return { views: query.data ?? [], unread: query.isError, save, remove };
}
