import type { Store } from '../store';
import type { ListingWithCardRow, OrderWithLineRow } from '../store/rows';
import type { IdSource } from './ids';

/** Every webhook topic of the spec's Events table. */
export const TOPICS = [
  'products/create',
  'products/update',
  'products/delete',
  'orders/create',
  'orders/updated',
  'orders/cancelled',
] as const;
export type Topic = (typeof TOPICS)[number];

export const isTopic = (value: unknown): value is Topic =>
  typeof value === 'string' && (TOPICS as readonly string[]).includes(value);

/** Where the product payload's public URLs point (the running sandbox's own address). */
export const PUBLIC_ORIGIN_KEY = 'public_origin';
export const DEFAULT_ORIGIN = 'http://127.0.0.1:4010';

/** Event payload writers: serializers are a layer up, so the root hands them in. */
export interface EventPayloads {
  product(row: ListingWithCardRow, store: Store): unknown;
  order(row: OrderWithLineRow): unknown;
}

const payloadWriters = new WeakMap<Store, EventPayloads>();

export function setEventPayloads(store: Store, payloads: EventPayloads): void {
  payloadWriters.set(store, payloads);
}

function payloadsOf(store: Store): EventPayloads {
  const payloads = payloadWriters.get(store);
  if (!payloads) throw new Error('events: no payload views were given for this store');
  return payloads;
}

/** Called (after the current synchronous transaction) whenever the outbox gained jobs. */
const outboxListeners = new WeakMap<Store, () => void>();

export function onOutbox(store: Store, listener: () => void): void {
  outboxListeners.set(store, listener);
}

/** Records an event of the changed row and its delivery jobs, in the change's transaction. */
function emit(
  store: Store,
  ids: IdSource,
  now: number,
  topic: Topic,
  row: ListingWithCardRow | OrderWithLineRow,
  payload: () => unknown,
): void {
  const subscribers = store.webhooks
    .subscribers(row.seller_id)
    .filter((w) => (JSON.parse(w.topics) as string[]).includes(topic));
  if (subscribers.length === 0) return;
  const id = ids.id('evt');
  store.webhooks.insertEvent({
    id,
    seller_id: row.seller_id,
    test: row.test,
    topic,
    resource_id: row.id,
    payload: JSON.stringify(payload()),
    created_at: now,
  });
  for (const webhook of subscribers) store.webhooks.enqueue(id, webhook.id, now);
  const listener = outboxListeners.get(store);
  if (listener) setImmediate(listener);
}

/** A `products/*` event whose payload is the listing's product shape as it now stands. */
export function emitProductEvent(
  store: Store,
  ids: IdSource,
  now: number,
  topic: Extract<Topic, `products/${string}`>,
  listingId: string,
): void {
  const row = store.webhooks.anyEnabled() ? store.listings.getById(listingId) : undefined;
  if (row) emit(store, ids, now, topic, row, () => payloadsOf(store).product(row, store));
}

/** An `orders/*` event whose payload is the order's single view as it now stands. */
export function emitOrderEvent(
  store: Store,
  ids: IdSource,
  now: number,
  topic: Extract<Topic, `orders/${string}`>,
  orderId: string,
): void {
  const row = store.webhooks.anyEnabled() ? store.orders.getById(orderId) : undefined;
  if (row) emit(store, ids, now, topic, row, () => payloadsOf(store).order(row));
}
