import { flattenWriteBody } from '../../shared/write-body';
import { isRecord } from './bounded-json';

/**
 * The listing fields the activity log shows, read from the listing views, the product shape and
 * write bodies.
 */
export const TRACKED_FIELDS = [
  'title',
  'price',
  'status',
  'accepts_offers',
  'minimum_offer',
] as const;
export type TrackedField = (typeof TRACKED_FIELDS)[number];
export type Scalar = string | number | boolean | null;
export type TrackedValues = Partial<Record<TrackedField, Scalar>>;

/** Longest text kept as a change's value (a description may be 10,000 characters). */
const MAX_VALUE_CHARS = 300;

/** A value as the log keeps it: scalars as they are (long text cut), anything else as JSON. */
export function keptValue(value: unknown): Scalar {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
}

function scalarOf(value: unknown): Scalar | undefined {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value)
    ? (value as Scalar)
    : undefined;
}

/** The tracked fields of one listing view or product, and its id; undefined if it has no id. */
export function viewFields(view: unknown): { id: string; values: TrackedValues } | undefined {
  if (!isRecord(view)) return undefined;
  const id = typeof view.id === 'string' || typeof view.id === 'number' ? String(view.id) : '';
  if (!id) return undefined;
  const variant = Array.isArray(view.variants) ? (view.variants[0] as unknown) : undefined;
  const fromVariant = isRecord(variant) ? variant : {};
  const values: TrackedValues = {};
  for (const field of TRACKED_FIELDS) {
    const value = [
      view[field],
      view[`svc_${field}`],
      fromVariant[field],
      fromVariant[`svc_${field}`],
    ]
      .map(scalarOf)
      .find((one) => one !== undefined);
    if (value !== undefined) values[field] = value;
  }
  return { id, values };
}

/** Every listing view an answer carries: one (`listing`, `product`) or a page of them. */
export function viewsOfAnswer(body: unknown): { id: string; values: TrackedValues }[] {
  if (!isRecord(body)) return [];
  const one = body.listing ?? body.product;
  const many = body.listings ?? body.products;
  const views = Array.isArray(many) ? (many as unknown[]) : one === undefined ? [] : [one];
  return views.flatMap((view) => viewFields(view) ?? []);
}

/**
 * The fields a listing write body sets, in the write API's names, whatever form it came in; refused
 * fields left out, long or nested values cut down.
 */
export function writeFields(body: unknown, kind: 'create' | 'update'): Record<string, Scalar> {
  // Refused fields are the upstream's to report; the log keeps what was accepted.
  const flat = flattenWriteBody(body, kind, { add: () => {} });
  const out: Record<string, Scalar> = {};
  for (const [name, value] of Object.entries(flat)) out[name] = keptValue(value);
  return out;
}
