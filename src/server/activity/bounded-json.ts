import { parseBoundedJson as parseJson } from '../bounded-json';

/**
 * JSON from a stranger's bytes, read only when small and shallow enough (the activity log's
 * bodies).
 */
export interface JsonBounds {
  maxBytes: number;
  maxDepth: number;
}

export const DEFAULT_JSON_BOUNDS: JsonBounds = { maxBytes: 4 * 1024 * 1024, maxDepth: 32 };

/** The parsed value, or undefined when the bytes are too many, too deep, or not JSON. */
export function parseBoundedJson(
  bytes: Buffer | undefined,
  bounds: JsonBounds = DEFAULT_JSON_BOUNDS,
): unknown {
  if (!bytes || bytes.length === 0 || bytes.length > bounds.maxBytes) return undefined;
  const parsed = parseJson(bytes.toString('utf8'), bounds.maxDepth);
  return parsed.ok ? parsed.value : undefined;
}

export { isRecord } from '../bounded-json';
