import { MAX_JSON_DEPTH, nestingExceeds } from '../shared/json-body';

/**
 * JSON from outside parsed with a bound on nesting, measured on the text first: a body nested
 * thousands deep parses, but every recursive step after it would overflow the stack.
 */

export { MAX_JSON_DEPTH };

export type BoundedParse =
  { ok: true; value: unknown } | { ok: false; reason: 'too_deep' | 'invalid_json' };

/** `JSON.parse` of `text`, refused (not built) when nested deeper than `limit`. */
export function parseBoundedJson(text: string, limit = MAX_JSON_DEPTH): BoundedParse {
  if (nestingExceeds(text, limit)) return { ok: false, reason: 'too_deep' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, reason: 'invalid_json' };
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
