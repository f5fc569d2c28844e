import { isCancelledError, type QueryClient } from '@tanstack/react-query';
import type { ListingRead, Order, Page, SlabdeskClient } from '../../client';
import {
  LISTING_FIELDS,
  ORDER_FIELDS,
  type ListingFacts,
  type OrderFacts,
} from '../sales/sales-fields';
import { pingQuery } from '../connection-query';
import { KEPT_PAGE_ROWS, type Fingerprint, type KeptSource } from './kept-sync';

/** The kept rows' format: bump it when a kept row's content changes, so old copies are rebuilt. */
export const KEPT_FORMAT = 2;

/**
 * The /ping's answer, asked again when a page let go of it (strict mode mounts twice), or the copy
 * would belong to no one.
 */
async function pingOf(client: SlabdeskClient, queryClient: QueryClient) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await queryClient.ensureQueryData(pingQuery(client));
    } catch (error) {
      if (!isCancelledError(error) || attempt >= 3) throw error;
    }
  }
}

/** Who the kept rows belong to: the deployment we talk to, the key's mode, seller and key. */
async function scopeOf(
  client: SlabdeskClient,
  queryClient: QueryClient,
  collection: string,
): Promise<string> {
  const ping = await pingOf(client, queryClient);
  const base = client.transport.resolve('/');
  return [
    `v${KEPT_FORMAT}`,
    collection,
    base,
    ping.api_version,
    ping.mode,
    ping.seller_id,
    ping.key_id,
  ].join('|');
}

async function firstOf<T extends { id: string; created_at?: string | undefined }>(
  pages: AsyncGenerator<Page<T>, void, undefined>,
): Promise<Fingerprint | undefined> {
  for await (const page of pages) {
    const row = page.rows[0];
    await pages.return(undefined);
    return row ? { id: row.id, createdAt: row.created_at } : undefined;
  }
  return undefined;
}

// The resources' overloads type rows by the fields asked for; here one walk serves either.
type Pages = (options: object) => AsyncGenerator<Page<never>>;
/** One collection's reads: `collection` names its copy; `fields` (when given) trims its rows. */
function keptSource<T extends { id: string; created_at?: string }>(
  client: SlabdeskClient,
  queryClient: QueryClient,
  collection: string,
  pages: Pages,
  fields: readonly string[] | undefined,
): KeptSource<T> {
  return {
    collection,
    walk: (options) => pages({ limit: KEPT_PAGE_ROWS, ...options, fields, whole: true }),
    probe: (signal) =>
      firstOf(
        pages({
          signal,
          limit: 1,
          lookahead: 0,
          fields: ['id', 'created_at'],
          priority: 'background',
        }),
      ),
    scope: () => scopeOf(client, queryClient, collection),
    serverNow: () => client.transport.serverNow(),
    createdAtOf: (row) => row.created_at,
  };
}

const listingPages = (client: SlabdeskClient) => client.listings.pages as Pages;
const orderPages =
  (client: SlabdeskClient): Pages =>
  (options) =>
    client.orders.pages({ ...options, status: 'any' } as never) as AsyncGenerator<Page<never>>;

/** The seller's listings (the list view, every field): the catalogue. */
export const keptListings = (client: SlabdeskClient, queryClient: QueryClient) =>
  keptSource<ListingRead>(client, queryClient, 'listings', listingPages(client), undefined);

/** Every order (`status=any`, every field): the orders page. */
export const keptOrders = (client: SlabdeskClient, queryClient: QueryClient) =>
  keptSource<Order>(client, queryClient, 'orders', orderPages(client), undefined);

/** The listings' fields the money figures read (overview, insights). */
export const keptListingFacts = (client: SlabdeskClient, queryClient: QueryClient) =>
  keptSource<ListingFacts>(
    client,
    queryClient,
    'listing-facts',
    listingPages(client),
    LISTING_FIELDS,
  );

/** Every order's fields the money figures read (overview, insights, payouts). */
export const keptOrderFacts = (client: SlabdeskClient, queryClient: QueryClient) =>
  keptSource<OrderFacts>(client, queryClient, 'order-facts', orderPages(client), ORDER_FIELDS);
