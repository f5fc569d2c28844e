import { readOrderPayload, readProductPayload } from '../../client';

/**
 * What a verified delivery says of one row: the collection, the id, the fields it sets and the
 * record's own `updated_at`. A `products/*` payload is the product shape: only the fields it
 * carries are set on the listing's row (its card and the rest stay as read); an `orders/*` payload
 * is the order as its single view gives it, taken whole over the row.
 */
export interface RowChange {
  collection: 'listings' | 'orders';
  id: string;
  fields: Record<string, unknown>;
  updatedAt: string | null;
}

export function rowChangeOf(topic: string, payload: unknown): RowChange | null {
  if (topic.startsWith('products/')) {
    const product = readProductPayload(payload);
    if (!product) return null;
    const fields: Record<string, unknown> = {};
    if (product.title !== undefined) fields.title = product.title;
    if (product.status !== undefined) fields.status = product.status;
    const price = product.variants?.[0]?.price;
    if (price !== undefined) fields.price = price;
    if (product.svc_accepts_offers !== undefined)
      fields.accepts_offers = product.svc_accepts_offers;
    if (product.svc_unavailable_reason !== undefined) {
      fields.unavailable_reason = product.svc_unavailable_reason;
    }
    if (product.svc_can_reactivate !== undefined)
      fields.can_reactivate = product.svc_can_reactivate;
    if (product.body_html !== undefined) fields.description = product.body_html;
    if (product.updated_at !== undefined) fields.updated_at = product.updated_at;
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
    return {
      collection: 'orders',
      id: order.id,
      fields,
      updatedAt: typeof order.updated_at === 'string' ? order.updated_at : null,
    };
  }
  return null;
}

/** A listing write's answer (update or delete view) as the fields it sets on the row. */
export function listingWriteFields(
  answer: unknown,
): { id: string; fields: Record<string, unknown> } | null {
  if (typeof answer !== 'object' || answer === null) return null;
  const listing = (answer as { listing?: unknown }).listing;
  if (typeof listing !== 'object' || listing === null) return null;
  const record = listing as Record<string, unknown>;
  if (typeof record.id !== 'string' || 'svc_serialization_error' in record) return null;
  const fields: Record<string, unknown> = {};
  for (const key of [
    'title',
    'status',
    'price',
    'minimum_offer',
    'accepts_offers',
    'unavailable_reason',
    'can_reactivate',
    'updated_at',
  ]) {
    if (key in record) fields[key] = record[key];
  }
  return { id: record.id, fields };
}
