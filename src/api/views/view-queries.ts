import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isApiError, type SlabdeskClient } from '../../client';
import type { ViewTable } from '../../shared/saved-views';
import { useApiClient } from '../api-context';
import type { RouteDeps } from '../route-prefetch';
import { localStore, readKept, writeKept } from '../local-store';
import { deleteView, fetchViews, putView, type SavedView } from './view-api';

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

export const savedViewsQuery = (client: SlabdeskClient, table: ViewTable) =>
  queryOptions({
    queryKey: viewKeys.list(table),
    queryFn: async ({ signal }) =>
      moveKeptViews(client, table, await fetchViews(client, table, signal)),
    // Back on this tab: a view saved on another device since shows.
    refetchOnWindowFocus: true,
  });

/** Starts a table's saved views beside the page's reads: they are drawn above its list. */
export const prefetchViews = ({ client, queryClient }: RouteDeps, table: ViewTable) =>
  void queryClient.prefetchQuery(savedViewsQuery(client, table));

/**
 * False only while the first read of a table's views is on its way: the list under them waits
 * for it, as a view that came after the rows would wrap their row on a phone and push them down.
 * Offline (the read paused) or failed once, the list is drawn without them.
 */
export function useViewsRead(table: ViewTable): boolean {
  const query = useQuery(savedViewsQuery(useApiClient(), table));
  return !(query.isPending && query.fetchStatus === 'fetching' && query.failureCount === 0);
}

/** A table's saved views (the account's, on every device), and saving and deleting one. */
export function useSavedViews(table: ViewTable) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const query = useQuery(savedViewsQuery(client, table));
  const settle = (views: SavedView[]) => queryClient.setQueryData(viewKeys.list(table), views);
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
