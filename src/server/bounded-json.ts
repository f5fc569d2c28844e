import { MAX_JSON_DEPTH, nestingExceeds } from '../sandbox/platform/json-body';

/**
 * JSON from outside (webhook deliveries, upstream answers) parsed with a bound on nesting: a
 * body nested thousands deep parses (V8's parser is iterative), but every recursive step after
 * it, `JSON.stringify` to the tabs included, then overflows the stack. The depth is measured on
 * the text first, in one pass, so nothing too deep is ever built.
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
