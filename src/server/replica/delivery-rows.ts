import { readOrderPayload, readProductPayload } from '../../client';
import type { ProxiedExchange } from '../api-proxy';

/** A listing write's path through the proxy (the alias `products` paths answer another shape). */
const LISTING_WRITE_PATH = /^\/2026-07\/listings(?:\/[^/]+?)?(?:\.json)?$/;

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
const WRITE_FIELDS = [
  'title',
  'status',
  'price',
  'minimum_offer',
  'accepts_offers',
  'unavailable_reason',
  'can_reactivate',
  'updated_at',
];

/**
 * A verified delivery's row: a `products/*` payload sets only the listing fields it carries (its
 * card and the rest stay as read); an `orders/*` payload is the order whole, as its view gives it.
 */
export function rowChangeOf(topic: string, payload: unknown): RowChange | null {
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
  if (topic.startsWith('orders/')) {
    const order = readOrderPayload(payload);
    if (!order) return null;
    const { unreadable: _unreadable, absent: _absent, ...fields } = order;
    const updatedAt = typeof order.updated_at === 'string' ? order.updated_at : null;
    return { collection: 'orders', id: order.id, fields, updatedAt };
  }
  return null;
}

/** A listing write's answer (update or delete view) as the fields it sets on the row. */
export function listingWriteChange(answer: unknown): RowChange | null {
  const listing = (answer as { listing?: unknown } | null)?.listing;
  if (typeof listing !== 'object' || listing === null) return null;
  const record = listing as Record<string, unknown>;
  if (typeof record.id !== 'string' || 'svc_serialization_error' in record) return null;
  const fields = Object.fromEntries(
    WRITE_FIELDS.filter((key) => key in record).map((key) => [key, record[key]]),
  );
  const updatedAt = typeof record.updated_at === 'string' ? record.updated_at : null;
  return { collection: 'listings', id: record.id, fields, updatedAt };
}

/** The proxy's answer to a browser's call, when it is a successful listing write. */
export function proxiedWriteChange(exchange: ProxiedExchange): RowChange | null {
  if (exchange.method === 'GET' || exchange.status < 200 || exchange.status >= 300) return null;
  if (!LISTING_WRITE_PATH.test(exchange.path) || !exchange.responseBody) return null;
  return listingWriteChange(JSON.parse(exchange.responseBody.toString('utf8')));
}
