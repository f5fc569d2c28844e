import type * as z from 'zod/mini';
import { ApiError, CLIENT_ERROR_CODES } from './api-error';
import { DegradedRecord } from './error-schemas';
import { isRecord } from '../shared/is-record';
import { readTolerant } from './tolerant-reader';

/** A record of a 200 that was set aside: degraded by the service, or not matching the schema. */
export interface SetAsideRecord {
  id: string | undefined;
  kind: 'degraded' | 'unparseable';
  /** `svc_serialization_error.code` for a degraded record; `unexpected_response` otherwise. */
  code: string;
  message: string;
  /** For an unparseable record: which fields failed and why (`path: message`). */
  issues: string[];
  requestId: string | undefined;
}

export interface ParsedRows<T> {
  rows: T[];
  setAside: SetAsideRecord[];
}

/** Parses a page's rows field by field, setting degraded and unreadable ones aside. */
export function parseRows<T>(
  raw: unknown,
  schema: z.ZodMiniObject,
  keyField: string,
  requestId: string | undefined,
): ParsedRows<T> {
  const rows: T[] = [];
  const setAside: SetAsideRecord[] = [];
  if (!Array.isArray(raw)) {
    throw new ApiError({
      status: 200,
      code: CLIENT_ERROR_CODES.badResponse,
      message: 'The collection envelope does not hold an array',
      requestId,
    });
  }
  for (const item of raw) {
    const id = idOf(item, keyField);
    if (isDegraded(item)) {
      const degraded = DegradedRecord.parse(item);
      setAside.push({
        id: degraded.id,
        kind: 'degraded',
        code: degraded.svc_serialization_error.code,
        message: degraded.svc_serialization_error.message,
        issues: [],
        requestId,
      });
      continue;
    }
    // Read field by field: only a record without a readable id fails.
    const read = readTolerant(schema, item, keyField);
    if (read.ok) rows.push(read.value as T);
    else {
      setAside.push({
        id,
        kind: 'unparseable',
        code: CLIENT_ERROR_CODES.badResponse,
        message: 'The record does not match the expected shape',
        issues: read.issues,
        requestId,
      });
    }
  }
  return { rows, setAside };
}

export function isDegraded(item: unknown): boolean {
  // The key first: a failed parse of each healthy row (its issues built, then dropped) is costly.
  const keyed = typeof item === 'object' && item !== null && 'svc_serialization_error' in item;
  return keyed && DegradedRecord.safeParse(item).success;
}

function idOf(item: unknown, keyField: string): string | undefined {
  const value = isRecord(item) ? (item[keyField] ?? item.id) : undefined;
  return typeof value === 'string' ? value : undefined;
}
