import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { isNew } from '../../client';
import type { InventoryItem, InventoryLevel, SetAsideRecord, SlabdeskClient } from '../../client';
import { useApiClient } from '../api-context';
import { keptQuery } from '../kept/kept-query';
import { keptSource } from '../kept/kept-sources';
import type { Kept } from '../kept/kept-sync';
import type { Prefetch } from '../route-prefetch';
import { inventoryKeys } from './inventory-keys';
import { prefetchViews } from '../views/view-queries';
import type { KeptCost } from '../costs/cost-api';
import { keptCostsQuery } from '../costs/cost-queries';
import { centsOf } from '../../shared/money';

/** A level as kept: keyed by its card (a card stands at one location at a time). */
export type KeptLevel = InventoryLevel & { id: string };

/** Every card (every field): the one kept copy of inventory items. */
export const keptInventoryItems = (client: SlabdeskClient) =>
  keptSource<InventoryItem>(client, 'inventory-items', 'inventory_items');

/** Every card, kept between visits and brought up to date from the hub's change feed. */
export const inventoryItemsQuery = (client: SlabdeskClient, queryClient: QueryClient) =>
  keptQuery(queryClient, inventoryKeys.items(), keptInventoryItems(client), 60_000);

/** Every card's availability level, kept between visits and brought up to date from the hub. */
export const inventoryLevelsQuery = (client: SlabdeskClient, queryClient: QueryClient) =>
  keptQuery(
    queryClient,
    inventoryKeys.levels(),
    keptSource<KeptLevel>(client, 'inventory-levels', 'inventory_levels', (level) => ({
      ...(level as InventoryLevel),
      id: String(level.inventory_item_id),
    })),
    60_000,
  );

/** Why a card is or is not available, from the inventory levels: tells sold from deactivated. */
export function availabilityOf(
  level: Pick<InventoryLevel, 'available' | 'svc_unavailable_reason' | 'svc_can_reactivate'>,
) {
  return {
    available: level.available,
    reason: level.svc_unavailable_reason ?? null,
    canReactivate: level.svc_can_reactivate,
  };
}
export type Availability = ReturnType<typeof availabilityOf>;

/** What the inventory view gave of a card; a field it did not give is undefined, never guessed. */
export interface CardFacts {
  cost: string | undefined;
  grader: string | undefined;
  /** The cost is the seller's own, kept by our server (the API has no write of it). */
  costKept?: boolean;
}

/** A card's cost as set: the marketplace says "0.00" for none, so zero reads as "not set". */
export function costSet(cost: string | null | undefined): string | undefined {
  return cost && (centsOf(cost) ?? 0) > 0 ? cost : undefined;
}

/** Each card's `cost` (when set) and `svc_grader` by inventory item id: a view of the kept cards. */
export function cardFactsOf(items: Kept<InventoryItem>): Map<string, CardFacts> {
  return new Map(
    items.rows.map((item) => [item.id, { cost: costSet(item.cost), grader: item.svc_grader }]),
  );
}

/** The kept cards as `cardFactsOf` reads them, once the walk is whole (the marketplace's costs). */
export const cardFactsQuery = (client: SlabdeskClient, queryClient: QueryClient) => ({
  ...inventoryItemsQuery(client, queryClient),
  select: (items: Kept<InventoryItem>) => (items.complete ? cardFactsOf(items) : undefined),
});

/** The cards' facts with each cost the seller set in Slabdesk over the marketplace's. */
export function withKeptCosts(
  facts: ReadonlyMap<string, CardFacts>,
  kept: readonly KeptCost[],
): Map<string, CardFacts> {
  const out = new Map(facts);
  for (const cost of kept) {
    out.set(cost.itemId, {
      grader: facts.get(cost.itemId)?.grader,
      cost: cost.cost,
      costKept: true,
    });
  }
  return out;
}

/** Every card's cost and grader: the marketplace's `cost`, the seller's own kept one over it. */
export function useCardFacts(enabled = true) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const facts = useQuery({ ...cardFactsQuery(client, queryClient), enabled });
  const kept = useQuery({ ...keptCostsQuery(client), enabled });
  const settled = kept.data !== undefined || kept.isError;
  const data = useMemo(
    () => (facts.data && settled ? withKeptCosts(facts.data, kept.data ?? []) : undefined),
    [facts.data, kept.data, settled],
  );
  return { data, isError: facts.isError, error: facts.error };
}

/** The same for a one-off read (an export): the kept cards and the kept costs, fetched now. */
export async function fetchCardFacts(
  client: SlabdeskClient,
  queryClient: QueryClient,
): Promise<Map<string, CardFacts> | undefined> {
  const [items, kept] = await Promise.all([
    queryClient.fetchQuery(inventoryItemsQuery(client, queryClient)).catch(() => undefined),
    queryClient.fetchQuery(keptCostsQuery(client)).catch(() => []),
  ]);
  return items && withKeptCosts(cardFactsOf(items), kept);
}

export interface InventoryRow {
  item: InventoryItem;
  level: InventoryLevel | undefined;
  search: string;
}

export interface InventoryList {
  rows: InventoryRow[];
  /** Cards and levels that could not be read, by id. */
  setAside: SetAsideRecord[];
  /** Why a read stopped before its end (the rows read until then are kept), if one did. */
  stopped: Error | undefined;
}

/** Every card joined with its availability level: the two kept collections, joined here. */
export function useInventory() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const items = useQuery(inventoryItemsQuery(client, queryClient));
  const levels = useQuery(inventoryLevelsQuery(client, queryClient));
  const data = useMemo((): InventoryList | undefined => {
    // Whole, or stopped with the cards read until then (the failure stays with them).
    if (!items.data || (!items.data.complete && !items.data.failure)) return undefined;
    const failed = items.data.failure?.error ?? levels.data?.failure?.error;
    const byItem = new Map(levels.data?.rows.map((level) => [level.inventory_item_id, level]));
    return {
      rows: items.data.rows.map((item) => ({
        item,
        level: byItem.get(item.id),
        search:
          `${item.svc_player ?? ''} ${item.svc_cert_number ?? ''} ${item.svc_card_set ?? ''} ${item.svc_title ?? ''} ${item.id}`.toLowerCase(),
      })),
      setAside: dedupeById([...items.data.setAside, ...(levels.data?.setAside ?? [])]),
      stopped: failed === undefined || failed instanceof Error ? failed : new Error(String(failed)),
    };
  }, [items.data, levels.data]);
  const refetch = () => Promise.all([items.refetch(), levels.refetch()]);
  const error = items.error ?? levels.error;
  return { data, error, isError: error !== null, isPending: data === undefined && !error, refetch };
}

/** Cards no listing holds, by ids (listings, orders, available levels), never by reason code. */
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
  row.level?.svc_can_reactivate !== false && neverListed.has(row.item.id);

/** A card whose item and level were both unreadable is one card: reported once. */
function dedupeById(records: SetAsideRecord[]): SetAsideRecord[] {
  const seen = new Set<string>();
  return records.filter((record) => isNew(seen, record.id));
}

/** The inventory page's loader: its reads start while the page's code loads. */
export const prefetch: Prefetch = (deps) => {
  prefetchViews(deps, 'inventory');
  const { client, queryClient } = deps;
  void queryClient.prefetchQuery(inventoryItemsQuery(client, queryClient));
  void queryClient.prefetchQuery(inventoryLevelsQuery(client, queryClient));
};
