import type { Page, SlabdeskClient } from '../../client';
import type { ReplicaCollection, ReplicaStore } from './replica-store';

/** The collections read page by page (locations come in one answer, with no `updated_at`). */
export type PagedCollection = Exclude<ReplicaCollection, 'locations'>;
export const PAGED_COLLECTIONS: readonly PagedCollection[] = [
  'listings',
  'orders',
  'inventory_items',
  'inventory_levels',
];

/** The key of each collection's row (levels are keyed by their card). */
const KEY: Record<ReplicaCollection, string> = {
  listings: 'id',
  orders: 'id',
  inventory_items: 'id',
  inventory_levels: 'inventory_item_id',
  locations: 'id',
};

export interface ReadOutcome {
  rows: number;
  applied: number;
  setAside: string[];
  pages: number;
  /** The API's time at or before the first page was read. */
  syncedAt: string;
  /** The first row of a whole read of listings: the store's fingerprint. */
  first: { id: string; createdAt: string | null } | undefined;
  /** The ids of the rows `collect` picked (the orders whose timestamps leave open undecided). */
  collected: string[];
}

type AnyPage = Page<Record<string, unknown>>;

function pagesOf(
  client: SlabdeskClient,
  collection: PagedCollection,
  options: { updatedAtMin?: string; signal: AbortSignal },
): AsyncGenerator<AnyPage, void, undefined> {
  const walk = {
    priority: 'background' as const,
    limit: 250,
    signal: options.signal,
    ...(options.updatedAtMin ? { updatedAtMin: options.updatedAtMin } : {}),
  };
  const source = {
    listings: client.listings,
    orders: client.orders,
    inventory_items: client.inventoryItems,
    inventory_levels: client.inventoryLevels,
  }[collection];
  // Each resource's pages are typed by its schema; the replica keeps rows as JSON.
  return source.pages(walk) as unknown as AsyncGenerator<AnyPage, void, undefined>;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * Reads a collection into the store: every row (a fill) or those updated since `updatedAtMin`
 * (a reconciliation), newest-wins; every degraded record set aside by id.
 */
export async function readCollection(
  client: SlabdeskClient,
  store: ReplicaStore,
  collection: PagedCollection,
  options: {
    updatedAtMin?: string;
    signal: AbortSignal;
    now: () => number;
    collect?: (row: Record<string, unknown>) => boolean;
    /** Told after each page with the rows it changed (the tabs hear of a fill as it goes). */
    onPage?: (applied: number) => void;
  },
): Promise<ReadOutcome> {
  const outcome: ReadOutcome = {
    rows: 0,
    applied: 0,
    setAside: [],
    pages: 0,
    syncedAt: new Date(client.transport.serverNow() - 1000).toISOString(),
    first: undefined,
    collected: [],
  };
  const key = KEY[collection];
  for await (const page of pagesOf(client, collection, options)) {
    if (outcome.pages === 0 && page.meta.serverDate !== undefined) {
      // The `Date` header has whole seconds: a second earlier is at or before the read.
      const fromDate = page.meta.serverDate - 1000;
      if (fromDate < Date.parse(outcome.syncedAt))
        outcome.syncedAt = new Date(fromDate).toISOString();
    }
    outcome.pages++;
    const records = [];
    for (const row of page.rows) {
      const id = text(row[key]);
      if (id === null) continue;
      records.push({ id, body: row, updatedAt: text(row.updated_at) });
      if (options.collect?.(row)) outcome.collected.push(id);
      if (outcome.first === undefined && !options.updatedAtMin) {
        outcome.first = { id, createdAt: text(row.created_at) };
      }
    }
    outcome.rows += records.length;
    const applied = store.putMany(collection, records);
    outcome.applied += applied;
    const at = new Date(options.now()).toISOString();
    for (const record of page.setAside) {
      if (record.id === undefined) continue;
      store.setAside(collection, { id: record.id, code: record.code, message: record.message }, at);
      outcome.setAside.push(record.id);
    }
    options.onPage?.(applied);
  }
  return outcome;
}

/** The two locations, read whole (they take no parameters and carry no `updated_at`). */
export async function readLocations(
  client: SlabdeskClient,
  store: ReplicaStore,
  signal: AbortSignal,
): Promise<number> {
  const { data } = await client.locations.list({ signal, priority: 'background' });
  return store.putMany(
    'locations',
    data.map((location) => ({
      id: location.id,
      body: location as Record<string, unknown>,
      updatedAt: null,
    })),
  );
}
