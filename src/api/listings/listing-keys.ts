/** The one query-key factory of listings. */
export const listingKeys = {
  all: ['listings'] as const,
  lists: () => [...listingKeys.all, 'list'] as const,
  /** The whole catalogue, walked through cursors and refreshed incrementally. */
  catalogue: () => [...listingKeys.lists(), 'catalogue'] as const,
  details: () => [...listingKeys.all, 'detail'] as const,
  detail: (id: string) => [...listingKeys.details(), id] as const,
};
