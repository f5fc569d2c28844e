import type { Prefetch } from '../../lib/route-prefetch';
import { queryOptions } from '@tanstack/react-query';
import type {
  InventoryItem,
  InventoryLevel,
  SetAsideRecord,
  SlabdeskClient,
  WalkStoppedError,
} from '../../client';
import { keepPartial } from '../../lib/partial-load';
import { inventoryKeys } from './inventory-keys';

export interface InventoryRow {
  item: InventoryItem;
  level: InventoryLevel | undefined;
  search: string;
}

export interface InventoryList {
  rows: InventoryRow[];
  /** Cards and levels that could not be read, by id. */
  setAside: SetAsideRecord[];
  /** Why a walk stopped before its end (the rows read until then are kept), if one did. */
  stopped: WalkStoppedError | undefined;
}

/** Every card joined with its availability level (both collections walked in full). */
export const inventoryQuery = (client: SlabdeskClient) =>
  queryOptions({
    queryKey: inventoryKeys.joined(),
    queryFn: async ({ signal }): Promise<InventoryList> => {
      const [items, levels] = await Promise.all([
        keepPartial(client.inventoryItems.loadAll({ signal })),
        keepPartial(client.inventoryLevels.loadAll({ signal })),
      ]);
      const byItem = new Map(levels.rows.map((level) => [level.inventory_item_id, level]));
      return {
        rows: items.rows.map((item) => ({
          item,
          level: byItem.get(item.id),
          search:
            `${item.svc_player ?? ''} ${item.svc_cert_number ?? ''} ${item.svc_card_set ?? ''} ${item.svc_title ?? ''} ${item.id}`.toLowerCase(),
        })),
        setAside: dedupeById([...items.setAside, ...levels.setAside]),
        stopped: items.stopped ?? levels.stopped,
      };
    },
  });

/**
 * The cards no listing holds: a listing's `card.id` is its card's inventory item id, and an order
 * names every card it sold (a lot's members too). A card its level shows available is on sale, so
 * some listing holds it. Read from ids, never from a reason code: the full set of codes is not
 * shown. The list view names only a lot's first card, so the other cards of a lot that is not on
 * sale and never sold are not known to be listed.
 */
export function neverListedIds(
  rows: readonly InventoryRow[],
  listings: readonly { card?: { id?: string | undefined } | undefined }[],
  orderCards: ReadonlySet<string>,
): Set<string> {
  const held = new Set<string>();
  for (const listing of listings) if (listing.card?.id) held.add(listing.card.id);
  const out = new Set<string>();
  for (const { item, level } of rows) {
    if (held.has(item.id) || orderCards.has(item.id) || level?.available === 1) continue;
    out.add(item.id);
  }
  return out;
}

/** A card can be listed from inventory when it was never listed, unless its level says gone. */
export const canListFromInventory = (row: InventoryRow, neverListed: ReadonlySet<string>) =>
  neverListed.has(row.item.id) && row.level?.svc_can_reactivate !== false;

/** A card whose item and level were both unreadable is one card: reported once. */
function dedupeById(records: SetAsideRecord[]): SetAsideRecord[] {
  const seen = new Set<string>();
  return records.filter((record) => {
    if (record.id === undefined) return true;
    if (seen.has(record.id)) return false;
    seen.add(record.id);
    return true;
  });
}

/** The inventory page's loader: its walk starts while the page's code loads. */
export const prefetch: Prefetch = ({ client, queryClient }) => {
  void queryClient.prefetchQuery(inventoryQuery(client));
};
