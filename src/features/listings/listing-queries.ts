import { queryOptions } from '@tanstack/react-query';
import type { SlabdeskClient } from '../../client';
import { listingKeys } from './listing-keys';

/** One listing in the product shape: every field the API has for it. */
export const listingDetailQuery = (client: SlabdeskClient, id: string) =>
  queryOptions({
    queryKey: listingKeys.detail(id),
    queryFn: async ({ signal }) => (await client.products.get(id, { signal })).data,
  });
