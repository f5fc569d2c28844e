import type { Page, SlabdeskClient } from '../../client';
import { serverLog } from '../log';
import type { ReplicaCollection, ReplicaStore } from './replica-store';

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
  now: () => number;
  tell: (collection: ReplicaCollection) => void;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * Reads a collection into the store, newest-wins: every row when not filled (a fill), else those
 * updated since the last read began, a little before (a reconciliation); each degraded record set
 * aside by id; `tell` hears of each page that changed rows, then of the read's changes.
 */
export async function walkCollection(
  { client, store, signal, now, tell }: WalkContext,
  collection: ReplicaCollection,
): Promise<void> {
  if (collection === 'locations') {
    // The two locations, read whole (they take no parameters and carry no `updated_at`).
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
  const started = now();
  // The API's time at or before the first page was read.
  let syncedAt = new Date(client.transport.serverNow() - 1000).toISOString();
  let [rows, applied, pages] = [0, 0, 0];
  const setAside: string[] = [];
  /** The first row of a whole read of listings: the store's fingerprint. */
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
    const at = new Date(now()).toISOString();
    for (const { id, code, message } of page.setAside) {
      if (id === undefined) continue;
      store.setAside(collection, { id, code, message }, at);
      setAside.push(id);
    }
    if (changed > 0) tell(collection);
  }
  applied += await noteOpenOrders(client, store, undecided, since, signal);
  store.setState(collection, { filled: true, syncedAt });
  if (whole) {
    if (collection === 'listings') store.setMeta('fingerprint', JSON.stringify(first));
    const ms = now() - started;
    serverLog.info({ collection, rows, pages, setAside: setAside.length, ms }, 'Replica: filled');
  }
  if (setAside.length > 0) {
    serverLog.warn({ collection, ids: setAside }, 'Replica: records the API could not read');
  }
  if (applied > 0) tell(collection);
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
    ...(since ? { updatedAtMin: since } : {}),
  } as const;
  for await (const page of client.orders.pages(walk)) {
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

/** The store's oldest listing (one row, two fields): the fill's first, unless it was reset. */
type Fingerprint = { id: string; createdAt: string | null } | null;

async function readFingerprint(client: SlabdeskClient, signal: AbortSignal): Promise<Fingerprint> {
  const only = { limit: 1, fields: ['id', 'created_at'], lookahead: 0 } as const;
  for await (const page of client.listings.pages({ ...only, priority: 'background', signal })) {
    const row = page.rows[0] ?? page.setAside[0];
    if (row?.id === undefined) return null;
    return { id: row.id, createdAt: 'created_at' in row ? text(row.created_at) : null };
  }
  return null;
}

/** The store's oldest listing (one row, two fields) against the one the fill saw first. */
export async function storeWasReset({ client, store, signal }: WalkContext): Promise<boolean> {
  const ours = JSON.parse(store.meta('fingerprint') ?? 'null') as Fingerprint;
  const first = await readFingerprint(client, signal);
  if (ours === null) {
    // The fill saw no listing: the first one since is taken as the store's.
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
