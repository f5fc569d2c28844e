import type { Prefetch } from '../../api/route-prefetch';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { SlabdeskClient } from '../../client';
import { useApiClient } from '../../api/api-context';
import type { Catalogue } from '../../api/listings/catalogue-query';
import { listingKeys } from '../../api/listings/listing-keys';
import { toListingView } from './listing-view';

/** One listing's single view (`GET /listings/{id}.json`), read field by field. */
export const listingDetailQuery = (client: SlabdeskClient, id: string) =>
  queryOptions({
    queryKey: listingKeys.detail(id),
    queryFn: async ({ signal }) => (await client.listings.get(id, { signal })).data,
  });

/**
 * The listing as its pages show it: the single view, completed by the catalogue's row when loaded.
 */
export function useListingView(id: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const query = useQuery(listingDetailQuery(client, id));
  const catalogue = queryClient.getQueryData<Catalogue>(listingKeys.catalogue());
  const row = useMemo(() => catalogue?.rows.find((r) => r.id === id), [catalogue, id]);
  const view = useMemo(
    () => (query.data ? toListingView(query.data, row) : undefined),
    [query.data, row],
  );
  return { query, view };
}

/** The listing pages' loader (detail and edit): the single view's read starts with their code. */
export const prefetchListing: Prefetch = ({ client, queryClient }, { params }) => {
  if (params.listingId) {
    void queryClient.prefetchQuery(listingDetailQuery(client, params.listingId));
  }
};
