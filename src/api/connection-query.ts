import { queryOptions } from '@tanstack/react-query';
import type { SlabdeskClient } from '../client';

/** The connection (`/ping`) is shared by the layout's badge and the overview. */
export const connectionKeys = {
  all: ['connection'] as const,
  ping: () => [...connectionKeys.all, 'ping'] as const,
};

export const pingQuery = (client: SlabdeskClient) =>
  queryOptions({
    queryKey: connectionKeys.ping(),
    queryFn: async ({ signal }) => (await client.ping({ signal })).data,
    staleTime: 60_000,
  });
