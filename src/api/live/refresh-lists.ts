import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { inventoryKeys } from '../inventory/inventory-keys';
import { listingKeys } from '../listings/listing-keys';
import { orderKeys } from '../orders/order-keys';

/** The kept lists each of the hub's collections feeds. */
const FED_BY: Record<string, QueryKey> = {
  listings: listingKeys.lists(),
  orders: orderKeys.lists(),
  inventory_items: inventoryKeys.items(),
  inventory_levels: inventoryKeys.levels(),
};

/** Reads what changed of the kept lists on screen from the hub's feed (`collections`, or all). */
export function refreshLists(queryClient: QueryClient, collections?: readonly string[]): void {
  const keys = collections
    ? collections.flatMap((name) => (FED_BY[name] ? [FED_BY[name]] : []))
    : [listingKeys.lists(), orderKeys.lists(), inventoryKeys.lists()];
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
}
