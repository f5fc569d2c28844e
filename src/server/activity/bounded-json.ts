import { nestingExceeds } from '../../sandbox/platform/json-body';

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

/** The parsed value, or undefined when the bytes are too many, too deep, or not JSON. */
export function parseBoundedJson(
  bytes: Buffer | undefined,
  bounds: JsonBounds = DEFAULT_JSON_BOUNDS,
): unknown {
  if (!bytes || bytes.length === 0 || bytes.length > bounds.maxBytes) return undefined;
  const text = bytes.toString('utf8');
  if (nestingExceeds(text, bounds.maxDepth)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
