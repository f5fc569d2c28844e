import { queryOptions } from '@tanstack/react-query';
import type { InventoryItem, InventoryLevel, SetAsideRecord, SlabdeskClient } from '../../client';
import { inventoryKeys } from './inventory-keys';

export interface InventoryRow {
  item: InventoryItem;
  level: InventoryLevel | undefined;
  search: string;
}

/** Every card joined with its availability level (both collections walked in full). */
export const inventoryQuery = (client: SlabdeskClient) =>
  queryOptions({
    queryKey: inventoryKeys.joined(),
    queryFn: async ({ signal }): Promise<{ rows: InventoryRow[]; setAside: SetAsideRecord[] }> => {
      const [items, levels] = await Promise.all([
        client.inventoryItems.loadAll({ signal }),
        client.inventoryLevels.loadAll({ signal }),
      ]);
      const byItem = new Map(levels.rows.map((level) => [level.inventory_item_id, level]));
      return {
        rows: items.rows.map((item) => ({
          item,
          level: byItem.get(item.id),
          search:
            `${item.svc_player} ${item.svc_cert_number} ${item.svc_card_set} ${item.svc_title ?? ''} ${item.id}`.toLowerCase(),
        })),
        setAside: [...items.setAside, ...levels.setAside],
      };
    },
  });

/** A card can be listed from inventory when it was never listed. */
export const canListFromInventory = (row: InventoryRow) =>
  row.level?.available === 0 && row.level.svc_unavailable_reason === 'not_listed';
