import type { QueryClient } from '@tanstack/react-query';
import type { ListingRead, Order, Page, SlabdeskClient, WalkOptions } from '../../client';
import {
  LISTING_FIELDS,
  ORDER_FIELDS,
  type ListingFacts,
  type OrderFacts,
} from '../sales/sales-fields';
import { pingQuery } from '../connection-query';
import { KeptCollection, type Fingerprint, type KeptSource } from './kept-collection';
import { keptDb, type KeptDb } from './kept-db';

/**
 * The format of the kept rows: bump it when what a kept row holds changes (a schema or reader
 * change), so an older copy is rebuilt instead of read.
 */
export const KEPT_FORMAT = 2;

export interface KeptSources {
  /** The seller's listings (the list view, every field): the catalogue. */
  listings: KeptCollection<ListingRead>;
  /** Every order (`status=any`, every field): the orders page. */
  orders: KeptCollection<Order>;
  /** The listings' fields the money figures read (overview, insights). */
  listingFacts: KeptCollection<ListingFacts>;
  /** Every order's fields the money figures read (overview, insights, payouts). */
  orderFacts: KeptCollection<OrderFacts>;
}

const registry = new WeakMap<SlabdeskClient, KeptSources>();
/** The same, by the QueryClient that reads them (for code that patches caches by QueryClient). */
const byQueryClient = new WeakMap<QueryClient, KeptSources>();

/** The kept collections already made for this QueryClient's pages, if any. */
export function keptSourcesOf(queryClient: QueryClient): KeptSources | undefined {
  return byQueryClient.get(queryClient);
}

/**
 * The kept collections of this client (one per client: every page reads the same ones, so a
 * visit to insights walks each collection once, shared with any other page that needs it).
 * `db` overrides the browser's IndexedDB (tests); null keeps the copies in memory only.
 */
export function keptSources(
  client: SlabdeskClient,
  queryClient: QueryClient,
  db: KeptDb | null = keptDb(),
): KeptSources {
  let sources = registry.get(client);
  if (!sources) {
    sources = createKeptSources(client, queryClient, db);
    registry.set(client, sources);
  }
  byQueryClient.set(queryClient, sources);
  return sources;
}

/** Who the kept rows belong to: the deployment we talk to, the key's mode, seller and key. */
async function scopeOf(
  client: SlabdeskClient,
  queryClient: QueryClient,
  collection: string,
): Promise<string> {
  const ping = await queryClient.ensureQueryData(pingQuery(client));
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

/** One collection's reads: `collection` names its copy; `fields` (when given) trims its rows. */
function keptSource<T extends { id: string; created_at?: string }>(
  client: SlabdeskClient,
  queryClient: QueryClient,
  collection: string,
  pages: (
    options: Omit<WalkOptions, 'fields'> & { fields?: readonly string[] },
  ) => AsyncGenerator<Page<T>, void, undefined>,
  fields: readonly string[] | undefined,
): KeptSource<T> {
  return {
    collection,
    walk: (options) => pages({ limit: 250, ...options, fields, whole: true }),
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

export function createKeptSources(
  client: SlabdeskClient,
  queryClient: QueryClient,
  db: KeptDb | null,
): KeptSources {
  // The resources' overloads type rows by the fields asked for; here one walk serves either.
  const listingPages = client.listings.pages as (options: object) => AsyncGenerator<Page<never>>;
  const orderPages = (options: object) =>
    client.orders.pages({ ...options, status: 'any' } as never) as AsyncGenerator<Page<never>>;
  const source = <T extends { id: string; created_at?: string }>(
    collection: string,
    pages: (options: object) => AsyncGenerator<Page<never>>,
    fields?: readonly string[],
  ) => new KeptCollection<T>(keptSource<T>(client, queryClient, collection, pages, fields), db);
  return {
    listings: source<ListingRead>('listings', listingPages),
    orders: source<Order>('orders', orderPages),
    listingFacts: source<ListingFacts>('listing-facts', listingPages, LISTING_FIELDS),
    orderFacts: source<OrderFacts>('order-facts', orderPages, ORDER_FIELDS),
  };
}
