/** The one query-key factory of listings. */
export const listingKeys = {
  all: ['listings'] as const,
  lists: () => [...listingKeys.all, 'list'] as const,
  /** The whole catalogue, walked through cursors and refreshed incrementally. */
  catalogue: () => [...listingKeys.lists(), 'catalogue'] as const,
  detail: (id: string) => [...listingKeys.all, 'detail', id] as const,
};
