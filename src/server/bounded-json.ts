/**
 * JSON from outside (webhook deliveries, upstream answers) parsed with a bound on nesting: a
 * body nested thousands deep parses (V8's parser is iterative), but every recursive step after
 * it, `JSON.stringify` to the tabs included, then overflows the stack. The depth is measured on
 * the text first, in one pass, so nothing too deep is ever built.
 */

/** Deeper than any resource of the API (a product is about 4 levels). */
export const MAX_JSON_DEPTH = 64;

export type BoundedParse =
  { ok: true; value: unknown } | { ok: false; reason: 'too_deep' | 'invalid_json' };

/** The open brackets, closing brackets and string openings of a JSON text, found by a regex. */
const STRUCTURE = /[[\]{}"]/g;
/** The rest of a string after its opening quote: escapes and plain characters, then the close. */
const STRING_REST = /[^"\\]*(?:\\[\s\S][^"\\]*)*"/y;

/**
 * The deepest nesting of arrays and objects in `text`, or `limit + 1` as soon as it goes past
 * `limit` (the scan stops there). Brackets inside strings do not count.
 */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  STRUCTURE.lastIndex = 0;
  for (let found = STRUCTURE.exec(text); found !== null; found = STRUCTURE.exec(text)) {
    const char = found[0];
    if (char === '"') {
      STRING_REST.lastIndex = STRUCTURE.lastIndex;
      if (!STRING_REST.test(text)) break; // an unclosed string: JSON.parse will say so
      STRUCTURE.lastIndex = STRING_REST.lastIndex;
    } else if (char === '[' || char === '{') {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return limit + 1;
      }
    } else {
      depth--;
    }
  }
  return deepest;
}

/** `JSON.parse` of `text`, refused (not built) when nested deeper than `limit`. */
export function parseBoundedJson(text: string, limit = MAX_JSON_DEPTH): BoundedParse {
  if (jsonDepth(text, limit) > limit) return { ok: false, reason: 'too_deep' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, reason: 'invalid_json' };
  }
}
