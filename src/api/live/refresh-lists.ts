import type { QueryClient } from '@tanstack/react-query';
import { inventoryKeys } from '../inventory/inventory-keys';
import { listingKeys } from '../listings/listing-keys';
import { orderKeys } from '../orders/order-keys';

/** Reads what changed of every kept list on screen (each refresh is incremental). */
export function refreshLists(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: listingKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: orderKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: inventoryKeys.lists() });
}
