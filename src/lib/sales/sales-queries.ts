import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { keptOptions } from '../kept/kept-persister';
import { keptQueryFn } from '../kept/kept-query';
import { keptListingFacts, keptOrderFacts } from '../kept/kept-sources';
import { yieldToPage } from '../yield-to-page';
import { pingQuery } from '../connection-query';
import { mayRead } from '../required-scopes';
import type { Prefetch } from '../route-prefetch';
import type { SetAsideRecord, SlabdeskClient } from '../../client';

/** The one query-key factory of the money figures (overview, insights, payouts, margins). */
export const salesKeys = {
  all: ['sales'] as const,
  orders: () => [...salesKeys.all, 'orders'] as const,
  openOrders: () => [...salesKeys.all, 'open-orders'] as const,
  listings: () => [...salesKeys.all, 'listings'] as const,
  costs: () => [...salesKeys.all, 'costs'] as const,
};

export { LISTING_FIELDS, ORDER_FIELDS, type ListingFacts, type OrderFacts } from './sales-fields';

export interface Loaded<T> {
  rows: readonly T[];
  setAside: SetAsideRecord[];
  syncedAt: string;
}

/** Every order (`status=any`) from the kept orders, shared with the orders page. */
export const allOrdersQuery = (client: SlabdeskClient, queryClient: QueryClient) =>
  queryOptions({
    queryKey: salesKeys.orders(),
    staleTime: 30_000,
    ...keptOptions('order-facts'),
    queryFn: keptQueryFn(queryClient, salesKeys.orders(), keptOrderFacts(client, queryClient), {
      wholeOnly: true,
    }),
  });

/** Open order ids by the API's `status=open`, so the overview counts what Orders → Open shows. */
export const openOrderIdsQuery = (client: SlabdeskClient) =>
  queryOptions({
    queryKey: salesKeys.openOrders(),
    staleTime: 15_000,
    queryFn: async ({ signal }): Promise<string[]> => {
      const open = await client.orders.loadAll({ signal, status: 'open', fields: ['id'] });
      return open.rows.map((row) => row.id);
    },
  });

/** The listing list view, read field by field: the kept listings, shared with the catalogue. */
export const listingsQuery = (client: SlabdeskClient, queryClient: QueryClient) =>
  queryOptions({
    queryKey: salesKeys.listings(),
    staleTime: 60_000,
    ...keptOptions('listing-facts'),
    queryFn: keptQueryFn(queryClient, salesKeys.listings(), keptListingFacts(client, queryClient), {
      wholeOnly: true,
    }),
  });

/** What the inventory view gave of a card; a field it did not give is undefined, never guessed. */
export interface CardFacts {
  cost: string | undefined;
  grader: string | undefined;
}

/** Each card's `cost` and `svc_grader` by inventory item id (`GET /inventory_items.json`). */
export const costsQuery = (client: SlabdeskClient) =>
  queryOptions({
    queryKey: salesKeys.costs(),
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }): Promise<Map<string, CardFacts>> => {
      // Started from a page's effects: the walk's setting up goes in a task of its own.
      await yieldToPage();
      const items = await client.inventoryItems.loadAll({
        signal,
        fields: ['id', 'cost', 'svc_grader'],
      });
      return new Map(
        items.rows.map((item) => [item.id, { cost: item.cost, grader: item.svc_grader }]),
      );
    },
  });

/** Which money reads a page starts from its route loader. */
export interface SalesReads {
  orders?: boolean;
  openOrders?: boolean;
  listings?: boolean;
  /**
   * Reads wait for the /ping's scopes (the overview), or start beside it on pages that explain a
   * refusal.
   */
  scoped?: boolean;
}

/**
 * A route loader's start of the money reads: the connection, then each kept walk the key may read;
 * a refused read is left to the page to explain.
 */
export const prefetchSales =
  (reads: SalesReads): Prefetch =>
  ({ client, queryClient }) => {
    const start = (may: (resource: 'orders' | 'listings') => boolean) => {
      if (reads.orders && may('orders'))
        void queryClient.prefetchQuery(allOrdersQuery(client, queryClient));
      if (reads.openOrders && may('orders'))
        void queryClient.prefetchQuery(openOrderIdsQuery(client));
      if (reads.listings && may('listings'))
        void queryClient.prefetchQuery(listingsQuery(client, queryClient));
    };
    // A failed ping is the page's to show (its own ping query).
    const ping = queryClient.ensureQueryData(pingQuery(client)).catch(() => undefined);
    if (!reads.scoped) start(() => true);
    else void ping.then((known) => known && start((resource) => mayRead(known.scopes, resource)));
  };
