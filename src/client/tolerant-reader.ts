import * as z from 'zod/mini';
import { isRecord } from '../shared/is-record';

/** A field as the tolerant reader gives it: a nested object may lack the fields it could not read. */
type ReadableField<V> = V extends readonly unknown[] ? V : V extends object ? Partial<V> : V;

/** A record read field by field: `unreadable` and `absent` name the dotted paths left out. */
export type Readable<T, Key extends string = 'id'> = {
  unreadable?: string[];
  absent?: string[];
} & {
  [K in Key & keyof T]: T[K];
} & {
  [K in Exclude<keyof T, Key>]?: ReadableField<T[K]>;
};

export type ReadResult<T, Key extends string = 'id'> =
  { ok: true; value: Readable<T, Key> } | { ok: false; issues: string[] };

const lenientCache = new WeakMap<z.ZodMiniObject, Map<string | undefined, z.ZodMiniObject>>();

function objectInside(field: z.ZodMiniType): z.ZodMiniObject | undefined {
  let inner: z.ZodMiniType = field;
  while (inner instanceof z.ZodMiniOptional || inner instanceof z.ZodMiniNullable) {
    inner = inner._zod.def.innerType as z.ZodMiniType;
  }
  return inner instanceof z.ZodMiniObject ? inner : undefined;
}

/** The schema with every field but the key optional, one level into nested objects too. */
function lenient(schema: z.ZodMiniObject, keyField: string | undefined): z.ZodMiniObject {
  const byKey = lenientCache.get(schema) ?? new Map<string | undefined, z.ZodMiniObject>();
  lenientCache.set(schema, byKey);
  const cached = byKey.get(keyField);
  if (cached) return cached;
  const shape: Record<string, z.ZodMiniType> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodMiniType>)) {
    if (key === keyField) {
      shape[key] = field;
      continue;
    }
    const nested = objectInside(field);
    shape[key] = nested ? z.optional(z.partial(nested)) : z.optional(field);
  }
  const result = z.object(shape);
  byKey.set(keyField, result);
  return result;
}

const describe = (issue: z.core.$ZodIssue) => `${issue.path.join('.')}: ${issue.message}`;

/** Reads a record field by field; only a record without a readable key fails. */
export function readTolerant<S extends z.ZodMiniObject, Key extends string = 'id'>(
  schema: S,
  item: unknown,
  keyField: Key | undefined = 'id' as Key,
): ReadResult<z.infer<S>, Key> {
  const strict = schema.safeParse(item);
  if (strict.success) return { ok: true, value: asRead(strict.data, item) as never };
  if (!isRecord(item)) {
    return { ok: false, issues: strict.error.issues.map(describe) };
  }
  const shape = schema.shape as Record<string, z.ZodMiniType>;
  const copy: Record<string, unknown> = { ...item };
  const unreadable = new Set<string>();
  const absent = new Set<string>();
  for (const issue of strict.error.issues) {
    const [top, second] = issue.path;
    if (typeof top !== 'string') continue;
    const field = shape[top];
    const nested =
      field && typeof second === 'string' && objectInside(field) ? objectInside(field) : undefined;
    const value = copy[top];
    if (nested && isRecord(value)) {
      const inner = { ...value };
      const path = `${top}.${String(second)}`;
      if (inner[second as string] === undefined) absent.add(path);
      delete inner[second as string];
      copy[top] = inner;
      unreadable.add(path);
    } else {
      if (value === undefined) absent.add(top);
      delete copy[top];
      unreadable.add(top);
    }
  }
  if (keyField !== undefined && unreadable.has(keyField)) {
    return { ok: false, issues: strict.error.issues.map(describe) };
  }
  const relaxed = lenient(schema, keyField).safeParse(copy);
  if (!relaxed.success) return { ok: false, issues: relaxed.error.issues.map(describe) };
  return {
    ok: true,
    value: {
      ...(relaxed.data as object),
      unreadable: [...unreadable],
      ...(absent.size > 0 && { absent: [...absent] }),
    } as never,
  };
}

/** The record as it came when zod's copy left nothing out (a copy would double the heap). */
export function asRead<T>(copy: T, input: unknown): T {
  return sameKeys(copy, input) ? (input as T) : copy;
}

function sameKeys(copy: unknown, input: unknown): boolean {
  if (typeof copy !== 'object' || copy === null) return true;
  if (typeof input !== 'object' || input === null) return false;
  if (Array.isArray(copy)) {
    const items = input as unknown[];
    return copy.every((value, i) => sameKeys(value, items[i]));
  }
  const from = input as Record<string, unknown>;
  let kept = 0;
  for (const key in copy) {
    kept++;
    if (!sameKeys((copy as Record<string, unknown>)[key], from[key])) return false;
  }
  let sent = 0;
  for (const key in from) if (Object.hasOwn(from, key)) sent++;
  return kept === sent;
}
