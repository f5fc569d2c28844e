import { queryOptions } from '@tanstack/react-query';
import type { SlabdeskClient } from '../../client';
import type { Prefetch } from '../route-prefetch';
import { listingKeys } from './listing-keys';

/** One listing's single view (`GET /listings/{id}.json`), read field by field. */
export const listingDetailQuery = (client: SlabdeskClient, id: string) =>
  queryOptions({
    queryKey: listingKeys.detail(id),
    // A write's answer lands here (write-answer.ts): a page opened right after reads nothing.
    staleTime: 30_000,
    queryFn: async ({ signal }) => (await client.listings.get(id, { signal })).data,
  });

/** The listing pages' loader (detail and edit): the single view's read starts with their code. */
export const prefetchListing: Prefetch = ({ client, queryClient }, { params }) => {
  if (params.listingId) {
    void queryClient.prefetchQuery(listingDetailQuery(client, params.listingId));
  }
};
