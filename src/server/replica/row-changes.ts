import { readOrderPayload, readProductPayload } from '../../client';
import { isRecord } from '../../shared/is-record';

// What a delivery or a write's answer changes in the replica's rows, read from its payload.

/** What a delivery or a write's answer says of one row: the fields it sets, newest-wins. */
export interface RowChange {
  collection: 'listings' | 'orders';
  id: string;
  fields: Record<string, unknown>;
  updatedAt: string | null;
}

/** A product field a delivery carries, and the listing row's name for it. */
const PRODUCT_FIELDS = [
  ['title', 'title'],
  ['status', 'status'],
  ['svc_accepts_offers', 'accepts_offers'],
  ['svc_unavailable_reason', 'unavailable_reason'],
  ['svc_can_reactivate', 'can_reactivate'],
  ['body_html', 'description'],
  ['updated_at', 'updated_at'],
] as const;
/** The listing fields a write's answer sets on its row. */
const WRITE_FIELDS = ['title', 'status', 'price', 'minimum_offer', 'accepts_offers'].concat([
  'unavailable_reason',
  'can_reactivate',
  'updated_at',
]);
/** A listing write's path through the proxy (the alias `products` paths answer another shape). */
export const LISTING_WRITE_PATH = /^\/2026-07\/listings(?:\/[^/]+?)?(?:\.json)?$/;
export const textOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

/** A `products/*` delivery sets only the fields it carries; an `orders/*` one is the order whole. */
export function deliveryChange(topic: string, payload: unknown): RowChange | null {
  if (topic.startsWith('products/')) {
    const product = readProductPayload(payload);
    if (!product) return null;
    const fields: Record<string, unknown> = {};
    for (const [from, to] of PRODUCT_FIELDS) {
      if (product[from] !== undefined) fields[to] = product[from];
    }
    const price = product.variants?.[0]?.price;
    if (price !== undefined) fields.price = price;
    return {
      collection: 'listings',
      id: product.id,
      fields,
      updatedAt: product.updated_at ?? null,
    };
  }
  if (!topic.startsWith('orders/')) return null;
  const order = readOrderPayload(payload);
  if (!order) return null;
  const { unreadable: _unreadable, absent: _absent, ...fields } = order;
  return { collection: 'orders', id: order.id, fields, updatedAt: textOrNull(order.updated_at) };
}

/** A listing write's answer (update or delete view) as the fields it sets on the row. */
export function writeChange(answer: unknown): RowChange | null {
  const record = isRecord(answer) ? answer.listing : undefined;
  if (!isRecord(record) || typeof record.id !== 'string') return null;
  if ('svc_serialization_error' in record) return null;
  const fields = Object.fromEntries(
    WRITE_FIELDS.filter((key) => key in record).map((key) => [key, record[key]]),
  );
  return {
    collection: 'listings',
    id: record.id,
    fields,
    updatedAt: textOrNull(record.updated_at),
  };
}
