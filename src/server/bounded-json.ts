import { MAX_JSON_DEPTH, nestingExceeds } from '../shared/json-body';

// Nesting is measured on the text first: a body thousands deep parses, but walking it overflows.
export function parseBoundedJson(
  text: string,
  limit = MAX_JSON_DEPTH,
): { ok: true; value: unknown } | { ok: false; reason: 'too_deep' | 'invalid_json' } {
  if (nestingExceeds(text, limit)) return { ok: false, reason: 'too_deep' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, reason: 'invalid_json' };
  }
}

/** A stranger's bytes as JSON, or undefined when too many, too deep, or not JSON. */
export function jsonOfBytes(
  bytes: Buffer | undefined,
  bounds = { maxBytes: 4 * 1024 * 1024, maxDepth: 32 },
): unknown {
  if (!bytes || bytes.length === 0 || bytes.length > bounds.maxBytes) return undefined;
  const parsed = parseBoundedJson(bytes.toString('utf8'), bounds.maxDepth);
  return parsed.ok ? parsed.value : undefined;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
