import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useApiClient } from '../../lib/api-context';
import { usePollInterval } from '../../lib/live/live-context';
import { catalogueAvailabilityQuery, catalogueQuery } from './catalogue-query';
import { needsAvailability, toCatalogueRow } from './catalogue-row';

/**
 * The catalogue, its rows (memoised once per data change) and its query state. When the list
 * view does not say why some listings are unavailable, the inventory levels are joined in.
 */
export function useCatalogue(options: { enabled?: boolean } = {}) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  // Webhooks push changes while the server's stream is healthy; otherwise a minute's poll.
  const poll = usePollInterval(60_000);
  const query = useQuery({
    ...catalogueQuery(client, queryClient),
    enabled: options.enabled ?? true,
    // Incremental (only what changed since the last read), so a minute's poll is cheap.
    refetchInterval: poll,
  });
  const listings = query.data?.rows;
  const needsJoin = useMemo(() => (listings ?? []).some(needsAvailability), [listings]);
  const availability = useQuery({
    ...catalogueAvailabilityQuery(client, queryClient),
    enabled: (options.enabled ?? true) && query.data?.complete === true && needsJoin,
    refetchInterval: poll,
  });
  const byItem = availability.data?.byItem;
  const rows = useMemo(
    () => (listings ?? []).map((listing) => toCatalogueRow(listing, byItem)),
    [listings, byItem],
  );
  return { query, rows, availability: needsJoin ? availability : undefined };
}
