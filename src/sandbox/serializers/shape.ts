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
