/** The one query-key factory of inventory (cards and their availability levels). */
export const inventoryKeys = {
  all: ['inventory'] as const,
  lists: () => [...inventoryKeys.all, 'list'] as const,
  joined: () => [...inventoryKeys.lists(), 'joined'] as const,
};
