import type { QueryClient } from '@tanstack/react-query';
import type { ListingRead, Order, Page, SlabdeskClient } from '../../client';
import { pingQuery } from '../connection-query';
import { KeptCollection, type Fingerprint, type KeptSource } from './kept-collection';
import { keptDb, type KeptDb } from './kept-db';

/**
 * The format of the kept rows: bump it when what a kept row holds changes (a schema or reader
 * change), so an older copy is rebuilt instead of read.
 */
export const KEPT_FORMAT = 2;

export interface KeptSources {
  /** The seller's listings (the list view, every field): the catalogue and the money figures. */
  listings: KeptCollection<ListingRead>;
  /** Every order (`status=any`, every field): the orders page and the money figures. */
  orders: KeptCollection<Order>;
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

export function createKeptSources(
  client: SlabdeskClient,
  queryClient: QueryClient,
  db: KeptDb | null,
): KeptSources {
  const serverNow = () => client.transport.serverNow();
  const listings: KeptSource<ListingRead> = {
    collection: 'listings',
    walk: (options) => client.listings.pages({ limit: 250, ...options, fields: undefined }),
    probe: (signal) =>
      firstOf(
        client.listings.pages({
          signal,
          limit: 1,
          lookahead: 0,
          fields: ['id', 'created_at'],
          priority: 'background',
        }),
      ),
    scope: () => scopeOf(client, queryClient, 'listings'),
    serverNow,
    createdAtOf: (row) => row.created_at,
  };
  const orders: KeptSource<Order> = {
    collection: 'orders',
    walk: (options) =>
      client.orders.pages({ limit: 250, ...options, fields: undefined, status: 'any' }),
    probe: (signal) =>
      firstOf(
        client.orders.pages({
          signal,
          limit: 1,
          lookahead: 0,
          status: 'any',
          fields: ['id', 'created_at'],
          priority: 'background',
        }),
      ),
    scope: () => scopeOf(client, queryClient, 'orders'),
    serverNow,
    createdAtOf: (row) => row.created_at,
  };
  return {
    listings: new KeptCollection(listings, db),
    orders: new KeptCollection(orders, db),
  };
}
