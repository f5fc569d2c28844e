import type { ActivityFilters } from './activity-api';

/** The activity log's query keys (the Activity page and each listing's history). */
export const activityKeys = {
  all: () => ['activity'] as const,
  list: (filters: ActivityFilters) =>
    [
      ...activityKeys.all(),
      'list',
      { person: filters.person ?? '', listing: filters.listing ?? '', day: filters.day ?? '' },
    ] as const,
  page: (filters: ActivityFilters, before: number | undefined) =>
    [...activityKeys.list(filters), before ?? 'newest'] as const,
  listing: (listingId: string) => [...activityKeys.all(), 'listing', listingId] as const,
};
