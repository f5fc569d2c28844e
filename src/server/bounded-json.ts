import { nestingExceeds } from '../shared/json-body';

/** A stranger's bytes as JSON, or undefined when too many, too deep, or not JSON. */
export function jsonOfBytes(
  bytes: Buffer | undefined,
  bounds = { maxBytes: 4 * 1024 * 1024, maxDepth: 32 },
): unknown {
  if (!bytes || bytes.length === 0 || bytes.length > bounds.maxBytes) return undefined;
  const text = bytes.toString('utf8');
  // Nesting is measured on the text first: a body thousands deep parses, but walking it overflows.
  if (nestingExceeds(text, bounds.maxDepth)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
