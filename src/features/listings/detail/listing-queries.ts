import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useApiClient } from '../../../api/api-context';
import type { Catalogue } from '../../../api/listings/catalogue-query';
import { listingKeys } from '../../../api/listings/listing-keys';
import { listingDetailQuery } from '../../../api/listings/listing-detail-query';
import { toListingView } from './listing-view';

/** The listing as its pages show it: the single view, completed by the catalogue's row (kept). */
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
  return { query, view, row };
}
