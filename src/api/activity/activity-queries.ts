import { queryOptions } from '@tanstack/react-query';
import type { SlabdeskClient } from '../../client';
import { fetchActivity, type ActivityFilters } from './activity-api';
import { activityKeys } from './activity-keys';

/** One page of the log (not an infinite query, which would weigh every page's first chunk). */
export const activityPageQuery = (
  client: SlabdeskClient,
  filters: ActivityFilters,
  before: number | undefined,
) =>
  queryOptions({
    queryKey: activityKeys.page(filters, before),
    queryFn: ({ signal }) => fetchActivity(client, filters, { before, signal }),
    staleTime: 5_000,
  });

/** A listing's latest changes (its page's History section). */
export const listingHistoryQuery = (client: SlabdeskClient, listingId: string) =>
  queryOptions({
    queryKey: activityKeys.listing(listingId),
    queryFn: ({ signal }) => fetchActivity(client, { listing: listingId }, { limit: 20, signal }),
    staleTime: 5_000,
    retry: false,
  });
