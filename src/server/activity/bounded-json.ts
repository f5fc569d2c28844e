/**
 * JSON from bytes a stranger may have shaped, read only when it is small and shallow enough:
 * the activity log parses request and answer bodies after the answer was sent, and a body
 * nested thousands deep must cost a linear scan, never a stack.
 */
export interface JsonBounds {
  maxBytes: number;
  maxDepth: number;
}

export const DEFAULT_JSON_BOUNDS: JsonBounds = { maxBytes: 4 * 1024 * 1024, maxDepth: 32 };

/** The deepest nesting of `[` and `{` in JSON text (strings skipped), stopping past `limit`. */
export function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** The parsed value, or undefined when the bytes are too many, too deep, or not JSON. */
export function parseBoundedJson(
  bytes: Buffer | undefined,
  bounds: JsonBounds = DEFAULT_JSON_BOUNDS,
): unknown {
  if (!bytes || bytes.length === 0 || bytes.length > bounds.maxBytes) return undefined;
  const text = bytes.toString('utf8');
  if (nestingDepth(text, bounds.maxDepth) > bounds.maxDepth) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
