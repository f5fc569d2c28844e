import { queryOptions } from '@tanstack/react-query';
import type { SlabdeskClient } from '../../client';
import type { Prefetch } from '../route-prefetch';

/** The one query-key factory of locations. */
export const locationKeys = {
  all: ['locations'] as const,
  list: () => [...locationKeys.all, 'list'] as const,
};

export const locationsQuery = (client: SlabdeskClient) =>
  queryOptions({
    queryKey: locationKeys.list(),
    queryFn: async ({ signal }) => (await client.locations.list({ signal })).data,
    staleTime: Infinity,
  });

/** The locations page's loader: its one read starts while the page's code loads. */
export const prefetch: Prefetch = ({ client, queryClient }) => {
  void queryClient.prefetchQuery(locationsQuery(client));
};
