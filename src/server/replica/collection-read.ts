import type { Page, SlabdeskClient } from '../../client';
import { serverLog } from '../log';
import { REPLICA_COLLECTIONS, type ReplicaCollection, type ReplicaStore } from './replica-store';
import { textOrNull as text } from './row-changes';

/** The collections read page by page (locations come in one answer, with no `updated_at`). */
export type PagedCollection = Exclude<ReplicaCollection, 'locations'>;
export const PAGED_COLLECTIONS = REPLICA_COLLECTIONS.filter(
  (one): one is PagedCollection => one !== 'locations',
);
/** Read again before the last read's baseline: a change stamped as a read began is not missed. */
const OVERLAP_MS = 5_000;

/** What a walk reads with and writes to; `tell` hears of each collection whose rows changed. */
export interface WalkContext {
  client: SlabdeskClient;
  store: ReplicaStore;
  signal: AbortSignal;
  tell: (collection: ReplicaCollection) => void;
}

/** Reads a collection into the store newest-wins: whole when not filled, else what changed since. */
export async function walkCollection(
  { client, store, signal, tell }: WalkContext,
  collection: ReplicaCollection,
): Promise<void> {
  if (collection === 'locations') {
    const { data } = await client.locations.list({ signal, priority: 'background' });
    store.putMany(
      'locations',
      data.map((location) => ({ id: location.id, body: location, updatedAt: null })),
    );
    store.markFilled('locations', null);
    return tell('locations');
  }
  const { filled, syncedAt: last } = store.state(collection);
  const whole = !filled || last === null;
  const since = whole ? undefined : new Date(Date.parse(last) - OVERLAP_MS).toISOString();
  const started = Date.now();
  // The API's time at or before the first page was read (epoch ms), never later than ours: a
  // `Date` ahead of the clock that stamps `updated_at` would skip the changes in between for good.
  let syncedAt = Math.min(Date.now(), client.transport.serverNow()) - 1000;
  let [rows, applied, pages] = [0, 0, 0];
  const setAside: string[] = [];
  let first: Fingerprint = null;
  const source = {
    listings: client.listings,
    orders: client.orders,
    inventory_items: client.inventoryItems,
    inventory_levels: client.inventoryLevels,
  }[collection];
  // Levels are keyed by their card.
  const key = collection === 'inventory_levels' ? 'inventory_item_id' : 'id';
  const undecided: string[] = [];
  // Each page is stored as it comes: the walk keeps none of them.
  const walk = {
    priority: 'background',
    limit: 250,
    signal,
    updatedAtMin: since,
    keepRead: false,
  } as const;
  // Each resource's pages are typed by its schema; the replica keeps rows as JSON.
  const read = source.pages(walk) as unknown as AsyncIterable<Page<Record<string, unknown>>>;
  for await (const page of read) {
    // The `Date` header has whole seconds: a second earlier is at or before the read.
    const fromDate = pages++ === 0 ? page.meta.serverDate : undefined;
    if (fromDate !== undefined) syncedAt = Math.min(syncedAt, fromDate - 1000);
    const records = [];
    for (const row of page.rows) {
      const id = text(row[key]);
      if (id === null) continue;
      records.push({ id, body: row, updatedAt: text(row.updated_at) });
      if (collection === 'orders' && !row.cancelled_at && !row.closed_at) undecided.push(id);
      if (!first && !since) first = { id, createdAt: text(row.created_at) };
    }
    rows += records.length;
    const changed = store.putMany(collection, records);
    applied += changed;
    const at = new Date().toISOString();
    for (const { id, code, message } of page.setAside) {
      if (id === undefined) continue;
      store.setAside(collection, { id, code, message }, at);
      setAside.push(id);
    }
    if (changed > 0) tell(collection);
  }
  if (undecided.length > 0) {
    // Orders whose timestamps leave `slabdesk_open` undecided are asked of (delivered is closed).
    const open = new Set<string>();
    for await (const page of client.orders.pages({ ...walk, status: 'open', fields: ['id'] })) {
      for (const row of page.rows) open.add(row.id);
    }
    for (const id of undecided) {
      const fields = { slabdesk_open: open.has(id) };
      if (store.put('orders', id, fields, { updatedAt: null }) === 'applied') applied++;
    }
  }
  store.markFilled(collection, new Date(syncedAt).toISOString());
  if (whole) {
    if (collection === 'listings') store.setMeta('fingerprint', JSON.stringify(first));
    const ms = Date.now() - started;
    serverLog.info({ collection, rows, pages, setAside: setAside.length, ms }, 'Replica: filled');
  }
  if (setAside.length > 0) {
    serverLog.warn({ collection, ids: setAside }, 'Replica: records the API could not read');
  }
  if (applied > 0) tell(collection);
}

/** The store's oldest listing: the fill's first, unless it was reset. */
type Fingerprint = { id: string; createdAt: string | null } | null;

/** The store's oldest listing (one row, two fields) against the one the fill saw first. */
export async function storeWasReset({ client, store, signal }: WalkContext): Promise<boolean> {
  const ours = JSON.parse(store.meta('fingerprint') ?? 'null') as Fingerprint;
  const only = { limit: 1, fields: ['id', 'created_at'], lookahead: 0 } as const;
  let first: Fingerprint = null;
  for await (const page of client.listings.pages({ ...only, priority: 'background', signal })) {
    const row = page.rows[0] ?? page.setAside[0];
    if (row?.id !== undefined) {
      first = { id: row.id, createdAt: 'created_at' in row ? text(row.created_at) : null };
    }
    break;
  }
  // The fill saw no listing: the first one since is taken as the store's.
  if (ours === null) {
    if (first) store.setMeta('fingerprint', JSON.stringify(first));
    return false;
  }
  if (!first) return true;
  const { createdAt } = first;
  return (
    first.id !== ours.id ||
    (createdAt !== null && ours.createdAt !== null && createdAt !== ours.createdAt)
  );
}
