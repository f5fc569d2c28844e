/** The one query-key factory of inventory (cards and their availability levels). */
export const inventoryKeys = {
  all: ['inventory'] as const,
  lists: () => [...inventoryKeys.all, 'list'] as const,
  /** Every card (`inventory_items.json`), kept and refreshed incrementally. */
  items: () => [...inventoryKeys.lists(), 'items'] as const,
  /** Every card's availability (`inventory_levels.json`), kept and refreshed incrementally. */
  levels: () => [...inventoryKeys.lists(), 'levels'] as const,
};
