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

export interface ReadOutcome {
  rows: number;
  applied: number;
  setAside: string[];
  pages: number;
  /** The API's time at or before the first page was read. */
  syncedAt: string;
  /** The first row of a whole read of listings: the store's fingerprint. */
  first: { id: string; createdAt: string | null } | undefined;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * Reads a collection into the store, newest-wins: every row (a fill) or those updated `since` (a
 * reconciliation); each degraded record set aside by id; `onPage` told each page's changed rows.
 */
export async function readCollection(
  client: SlabdeskClient,
  store: ReplicaStore,
  collection: PagedCollection,
  options: { since?: string; signal: AbortSignal; now: () => number; onPage: (n: number) => void },
): Promise<ReadOutcome> {
  const { since, signal } = options;
  const outcome: ReadOutcome = {
    rows: 0,
    applied: 0,
    setAside: [],
    pages: 0,
    syncedAt: new Date(client.transport.serverNow() - 1000).toISOString(),
    first: undefined,
  };
  const source = {
    listings: client.listings,
    orders: client.orders,
    inventory_items: client.inventoryItems,
    inventory_levels: client.inventoryLevels,
  }[collection];
  // Levels are keyed by their card.
  const key = collection === 'inventory_levels' ? 'inventory_item_id' : 'id';
  const undecided: string[] = [];
  const walk = {
    priority: 'background',
    limit: 250,
    signal,
    ...(since ? { updatedAtMin: since } : {}),
  } as const;
  // Each resource's pages are typed by its schema; the replica keeps rows as JSON.
  const pages = source.pages(walk) as unknown as AsyncIterable<Page<Record<string, unknown>>>;
  for await (const page of pages) {
    // The `Date` header has whole seconds: a second earlier is at or before the read.
    const fromDate = outcome.pages++ === 0 ? page.meta.serverDate : undefined;
    if (fromDate !== undefined && fromDate - 1000 < Date.parse(outcome.syncedAt)) {
      outcome.syncedAt = new Date(fromDate - 1000).toISOString();
    }
    const records = [];
    for (const row of page.rows) {
      const id = text(row[key]);
      if (id === null) continue;
      records.push({ id, body: row, updatedAt: text(row.updated_at) });
      if (collection === 'orders' && !row.cancelled_at && !row.closed_at) undecided.push(id);
      if (!outcome.first && !since) outcome.first = { id, createdAt: text(row.created_at) };
    }
    outcome.rows += records.length;
    const applied = store.putMany(collection, records);
    outcome.applied += applied;
    const at = new Date(options.now()).toISOString();
    for (const { id, code, message } of page.setAside) {
      if (id === undefined) continue;
      store.setAside(collection, { id, code, message }, at);
      outcome.setAside.push(id);
    }
    options.onPage(applied);
  }
  outcome.applied += await noteOpenOrders(client, store, undecided, since, signal);
  return outcome;
}

/**
 * Notes on each order its timestamps leave undecided whether the API's `status=open` holds it (the
 * spec calls a delivered order closed, which no list field shows), as `slabdesk_open`: the open
 * ids among the orders changed `since` (the read's own moment), or all of them after a whole read.
 */
async function noteOpenOrders(
  client: SlabdeskClient,
  store: ReplicaStore,
  ids: readonly string[],
  since: string | undefined,
  signal: AbortSignal,
): Promise<number> {
  if (ids.length === 0) return 0;
  const open = new Set<string>();
  const walk = {
    status: 'open',
    fields: ['id'],
    limit: 250,
    priority: 'background',
    signal,
  } as const;
  for await (const page of client.orders.pages({
    ...walk,
    ...(since ? { updatedAtMin: since } : {}),
  })) {
    for (const row of page.rows) open.add(row.id);
  }
  let applied = 0;
  for (const id of ids) {
    const fields = { slabdesk_open: open.has(id) };
    const outcome = store.patch('orders', id, fields, { updatedAt: null, whole: false });
    if (outcome !== 'unknown' && outcome.applied) applied++;
  }
  return applied;
}

/** The two locations, read whole (they take no parameters and carry no `updated_at`). */
export async function readLocations(
  client: SlabdeskClient,
  store: ReplicaStore,
  signal: AbortSignal,
): Promise<number> {
  const { data } = await client.locations.list({ signal, priority: 'background' });
  const records = data.map((location) => ({ id: location.id, body: location, updatedAt: null }));
  return store.putMany('locations', records);
}

/** The store's oldest listing (one row, two fields): the fill's first, unless it was reset. */
export type Fingerprint = { id: string; createdAt: string | null } | null;

export async function readFingerprint(client: SlabdeskClient, signal: AbortSignal) {
  const only = { limit: 1, fields: ['id', 'created_at'], lookahead: 0 } as const;
  for await (const page of client.listings.pages({ ...only, priority: 'background', signal })) {
    const row = page.rows[0] ?? page.setAside[0];
    if (row?.id === undefined) return null;
    return { id: row.id, createdAt: 'created_at' in row ? text(row.created_at) : null };
  }
  return null;
}
