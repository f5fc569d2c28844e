/** Keeps only the requested top-level keys (the `fields` parameter). */
export function pickFields<T extends Record<string, unknown>>(
  record: T,
  fields: readonly string[] | undefined,
): Record<string, unknown> {
  if (!fields) return record;
  const out: Record<string, unknown> = {};
  for (const field of fields) if (field in record) out[field] = record[field];
  return out;
}

/** A record the serializer could not render: its id and why, inside an otherwise complete 200. */
export function degradedRecord(id: string) {
  return {
    id,
    svc_serialization_error: {
      code: 'serialization_failed',
      message:
        'This record could not be serialized. It is a service defect; other records are complete.',
    },
  };
}

export const bool = (value: number) => value === 1;

/** Fields to keep: `true` keeps a value, a nested set those fields of an object or each item. */
export interface FieldSet {
  readonly [key: string]: true | FieldSet;
}

/** Keeps the `fields` that `value` has, recursively, in the set's order; null stays null. */
export function project(value: unknown, fields: FieldSet): unknown {
  if (Array.isArray(value)) return value.map((element) => project(element, fields));
  if (value === null || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, nested] of Object.entries(fields)) {
    if (!(key in source)) continue;
    out[key] = nested === true ? source[key] : project(source[key], nested);
  }
  return out;
}

/** `project` for a record, typed as one. */
export const projectRecord = (record: object, fields: FieldSet) =>
  project(record, fields) as Record<string, unknown>;
