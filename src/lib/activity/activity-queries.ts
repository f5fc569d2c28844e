import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { SlabdeskClient } from '../../client';
import { fetchActivity, type ActivityFilters } from './activity-api';
import { activityKeys } from './activity-keys';

/** The log, filtered, a page at a time ("Load older" asks for the next). */
export const activityQuery = (client: SlabdeskClient, filters: ActivityFilters) =>
  infiniteQueryOptions({
    queryKey: activityKeys.list(filters),
    queryFn: ({ pageParam, signal }) =>
      fetchActivity(client, filters, { before: pageParam, signal }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.nextBefore ?? undefined,
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
