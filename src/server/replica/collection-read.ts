import type { Page, SlabdeskClient } from '../../client';
import { serverLog } from '../log';
import type { ReplicaCollection, ReplicaStore } from './replica-store';
import { textOrNull as text } from './row-changes';

/** The collections read page by page (locations come in one answer, with no `updated_at`). */
export type PagedCollection = Exclude<ReplicaCollection, 'locations'>;
export const PAGED_COLLECTIONS: readonly PagedCollection[] = [
  'listings',
  'orders',
  'inventory_items',
  'inventory_levels',
];
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
    store.setState('locations', { filled: true, syncedAt: null });
    return tell('locations');
  }
  const state = store.state(collection);
  const whole = !state.filled || state.syncedAt === null;
  const since = whole
    ? undefined
    : new Date(Date.parse(state.syncedAt!) - OVERLAP_MS).toISOString();
  const started = Date.now();
  // The API's time at or before the first page was read.
  let syncedAt = new Date(client.transport.serverNow() - 1000).toISOString();
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
  const walk = {
    priority: 'background',
    limit: 250,
    signal,
    ...(since ? { updatedAtMin: since } : {}),
  } as const;
  // Each resource's pages are typed by its schema; the replica keeps rows as JSON.
  const read = source.pages(walk) as unknown as AsyncIterable<Page<Record<string, unknown>>>;
  for await (const page of read) {
    // The `Date` header has whole seconds: a second earlier is at or before the read.
    const fromDate = pages++ === 0 ? page.meta.serverDate : undefined;
    if (fromDate !== undefined && fromDate - 1000 < Date.parse(syncedAt)) {
      syncedAt = new Date(fromDate - 1000).toISOString();
    }
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
  applied += await noteOpenOrders(client, store, undecided, walk);
  store.setState(collection, { filled: true, syncedAt });
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

/** Notes `slabdesk_open` on orders whose timestamps leave it undecided (delivered is closed). */
async function noteOpenOrders(
  client: SlabdeskClient,
  store: ReplicaStore,
  ids: readonly string[],
  walk: { priority: 'background'; limit: number; signal: AbortSignal; updatedAtMin?: string },
): Promise<number> {
  if (ids.length === 0) return 0;
  const open = new Set<string>();
  for await (const page of client.orders.pages({ ...walk, status: 'open', fields: ['id'] })) {
    for (const row of page.rows) open.add(row.id);
  }
  let applied = 0;
  for (const id of ids) {
    const fields = { slabdesk_open: open.has(id) };
    if (store.put('orders', id, fields, { updatedAt: null }) === 'applied') applied++;
  }
  return applied;
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
