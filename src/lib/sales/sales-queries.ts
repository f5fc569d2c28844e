import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { keptSources } from '../kept/kept-sources';
import type { ListingRead, Order, SetAsideRecord, SlabdeskClient } from '../../client';

/** The one query-key factory of the money figures (overview, insights, payouts, margins). */
export const salesKeys = {
  all: ['sales'] as const,
  orders: () => [...salesKeys.all, 'orders'] as const,
  openOrders: () => [...salesKeys.all, 'open-orders'] as const,
  listings: () => [...salesKeys.all, 'listings'] as const,
  costs: () => [...salesKeys.all, 'costs'] as const,
};

/** The order fields the money figures read (all documented): a lighter walk than every field. */
export const ORDER_FIELDS = [
  'id',
  'name',
  'created_at',
  'closed_at',
  'cancelled_at',
  'financial_status',
  'subtotal_price',
  'total_tax',
  'total_refunded',
  'line_items',
  'svc_sold_at',
  'svc_seller_shipment',
  'svc_payout',
] as const satisfies readonly (keyof Order)[];
export type OrderFacts = Pick<Order, (typeof ORDER_FIELDS)[number]>;

/**
 * The listing fields the figures read: the documented ones, plus `window_ends_at` and `promoted`,
 * which a server that does not show them simply leaves out.
 */
export const LISTING_FIELDS = [
  'id',
  'title',
  'status',
  'price',
  'listed_at',
  'card',
  'window_ends_at',
  'promoted',
] as const satisfies readonly (keyof ListingRead)[];
export type ListingFacts = Pick<ListingRead, (typeof LISTING_FIELDS)[number]>;

export interface Loaded<T> {
  rows: T[];
  setAside: SetAsideRecord[];
  syncedAt: string;
}

/**
 * Every order of the seller (`GET /orders.json?status=any`), from the kept orders: walked once
 * (or read from this browser's copy and brought up to date), shared with the orders page.
 */
export const allOrdersQuery = (client: SlabdeskClient, queryClient: QueryClient) =>
  queryOptions({
    queryKey: salesKeys.orders(),
    staleTime: 30_000,
    structuralSharing: false,
    queryFn: async (): Promise<Loaded<OrderFacts>> => {
      const kept = await keptSources(client, queryClient).orders.sync();
      // A copy of the pointers, once per read: the kept array grows in place.
      return { rows: kept.rows.slice(), setAside: kept.setAside, syncedAt: kept.syncedAt };
    },
  });

/**
 * The ids of open orders by the API's own `status=open` filter: the same filter as Orders → Open,
 * so the overview's count is that page's count.
 */
export const openOrderIdsQuery = (client: SlabdeskClient) =>
  queryOptions({
    queryKey: salesKeys.openOrders(),
    staleTime: 15_000,
    queryFn: async ({ signal }): Promise<string[]> => {
      const open = await client.orders.loadAll({ signal, status: 'open', fields: ['id'] });
      return open.rows.map((row) => row.id);
    },
  });

/**
 * The listing list view (`GET /listings.json`), read field by field by the tolerant reader: the
 * kept listings, the catalogue's own source (one walk for both).
 */
export const listingsQuery = (client: SlabdeskClient, queryClient: QueryClient) =>
  queryOptions({
    queryKey: salesKeys.listings(),
    staleTime: 60_000,
    structuralSharing: false,
    queryFn: async (): Promise<Loaded<ListingFacts>> => {
      const kept = await keptSources(client, queryClient).listings.sync();
      return { rows: kept.rows.slice(), setAside: kept.setAside, syncedAt: kept.syncedAt };
    },
  });

export interface CardFacts {
  cost: string;
  grader: string;
}

/** Each card's `cost` and `svc_grader` by inventory item id (`GET /inventory_items.json`). */
export const costsQuery = (client: SlabdeskClient) =>
  queryOptions({
    queryKey: salesKeys.costs(),
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }): Promise<Map<string, CardFacts>> => {
      const items = await client.inventoryItems.loadAll({
        signal,
        fields: ['id', 'cost', 'svc_grader'],
      });
      return new Map(
        items.rows.map((item) => [item.id, { cost: item.cost, grader: item.svc_grader }]),
      );
    },
  });
