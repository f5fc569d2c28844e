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

/** Which scope each part of the dashboard needs, as the spec's endpoint table says. */
export const REQUIRED_SCOPES = {
  listings: 'read_listings',
  writeListings: 'write_listings',
  orders: 'read_orders',
  inventory: 'read_inventory',
} as const;
