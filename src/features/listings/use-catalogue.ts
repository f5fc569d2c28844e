import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useApiClient } from '../../lib/api-context';
import { catalogueQuery } from './catalogue-query';
import { toCatalogueRow } from './catalogue-filters';

/** The catalogue, its flattened rows (memoised once per data change) and its query state. */
export function useCatalogue(options: { enabled?: boolean } = {}) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const query = useQuery({
    ...catalogueQuery(client, queryClient),
    enabled: options.enabled ?? true,
    // Incremental (only what changed since the last read), so a minute's poll is cheap.
    refetchInterval: 60_000,
  });
  const rows = useMemo(() => (query.data?.rows ?? []).map(toCatalogueRow), [query.data?.rows]);
  return { query, rows };
}
