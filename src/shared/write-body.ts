import { isRecord } from './is-record';

/** Where a refused field is told (the sandbox's FieldErrors; the activity log ignores them). */
export interface FieldSink {
  add(field: string, message: string): void;
}

const names = (list: string) => new Set(list.trim().split(/\s+/));
const TERMS = `duration_hours accepts_offers minimum_offer accepts_trades auto_relist promoted
  scheduled_go_live_at`;
/** The write API's field names, per kind of listing write (a flat map of them is the body). */
export const CREATE_FIELDS = names(`price sku inventory_item_id grader title description images
  card ${TERMS}`);
export const UPDATE_FIELDS = names(`price title description status ${TERMS}`);
/** Read-only members of the product shape that a write body may carry and that are ignored. */
const TOLERATED = new Set(['id']);
const TOLERATED_IN_VARIANT = new Set(['id', 'product_id', 'title', 'inventory_quantity']);

/** `body_html` is `description`; `svc_`-prefixed names are the plain ones. */
function canonicalName(name: string): string {
  if (name === 'body_html') return 'description';
  return name.startsWith('svc_') ? name.slice(4) : name;
}

/** Unwraps envelopes, `variants[0]` and alias names into one map; a repeat must agree. */
export function flattenWriteBody(
  body: unknown,
  kind: 'create' | 'update',
  errors: FieldSink,
): Record<string, unknown> {
  // Names come from the request: a map with no prototype keeps `__proto__` and friends as data.
  const flat = Object.create(null) as Record<string, unknown>;
  if (!isRecord(body)) {
    errors.add('listing', 'is required: send {"listing": {...}} (or {"product": {...}})');
    return flat;
  }
  if ('listing' in body && 'product' in body) {
    errors.add('listing', 'give either listing or product, not both');
    return flat;
  }
  const inner = body.listing ?? body.product;
  const envelope = 'product' in body ? 'product' : 'listing';
  if (!isRecord(inner)) {
    errors.add(envelope, inner === undefined ? 'is required' : 'must be an object');
    return flat;
  }
  for (const key of Object.keys(body)) {
    if (key !== envelope) errors.add(key, `is not accepted beside ${envelope}`);
  }
  const allowed = kind === 'create' ? CREATE_FIELDS : UPDATE_FIELDS;
  const put = (given: string, value: unknown, tolerated: Set<string>) => {
    if (tolerated.has(given)) return;
    const name = canonicalName(given);
    if (!allowed.has(name)) {
      errors.add(
        given,
        kind === 'update' && CREATE_FIELDS.has(name)
          ? 'cannot be changed by an update'
          : 'is not a field a listing write accepts',
      );
      return;
    }
    if (Object.hasOwn(flat, name) && JSON.stringify(flat[name]) !== JSON.stringify(value)) {
      errors.add(name, 'is given twice with different values');
      return;
    }
    flat[name] = value;
  };
  for (const [key, value] of Object.entries(inner)) {
    if (key === 'variants') {
      if (!Array.isArray(value)) {
        errors.add('variants', 'must be an array with one variant');
        continue;
      }
      if (value.length > 1) {
        errors.add('variants', 'a listing has exactly one variant, even for a lot');
        continue;
      }
      const variant: unknown = value[0];
      if (variant === undefined) continue;
      if (!isRecord(variant)) {
        errors.add('variants', 'variants[0] must be an object');
        continue;
      }
      for (const [vk, vv] of Object.entries(variant)) put(vk, vv, TOLERATED_IN_VARIANT);
      continue;
    }
    put(key, value, TOLERATED);
  }
  return flat;
}
