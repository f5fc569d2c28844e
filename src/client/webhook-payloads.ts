import * as z from 'zod/mini';
import { fields } from '../shared/lazy-fields';
import { Money, Order, Timestamp } from './schemas';
import { readTolerant, type Readable } from './tolerant-reader';

/** A `products/*` delivery's body, the fields applied, read field by field. */
export const ProductPayload = z.object(
  fields({
    id: () => z.string(),
    title: () => z.string(),
    status: () => z.string(),
    svc_unavailable_reason: () => z.nullable(z.string()),
    svc_can_reactivate: () => z.boolean(),
    svc_accepts_offers: () => z.boolean(),
    body_html: () => z.string(),
    variants: () => z.array(z.object({ price: Money })),
    updated_at: () => Timestamp,
  }),
);
export type ProductPayload = Readable<z.infer<typeof ProductPayload>>;

/** A product payload read tolerantly; null without a readable string id. */
export function readProductPayload(payload: unknown): ProductPayload | null {
  const read = readTolerant(ProductPayload, payload);
  return read.ok ? read.value : null;
}

/** An `orders/*` delivery's body (the order as its single view gives it); null without an id. */
export function readOrderPayload(payload: unknown): Order | null {
  const read = readTolerant(Order, payload);
  return read.ok ? read.value : null;
}
