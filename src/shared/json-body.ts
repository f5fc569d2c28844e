/** Request bodies: JSON only, never deeper than `MAX_JSON_DEPTH` (no stack overflow later). */
export const MAX_JSON_DEPTH = 64;

/** `application/json` only: the types a foreign page may send without asking are refused. */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json';
}

export type BodyVerdict =
  { kind: 'empty' } | { kind: 'json'; value: unknown } | { kind: 'too_deep' } | { kind: 'invalid' };

/** The deepest nesting in `text`, without recursion (strings skipped), up to past `limit`. */
export function nestingExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** Parses a JSON body: empty is no body, too deep and malformed are told apart. */
export function parseJsonBody(text: string): BodyVerdict {
  if (text.trim() === '') return { kind: 'empty' };
  if (nestingExceeds(text, MAX_JSON_DEPTH)) return { kind: 'too_deep' };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'invalid' };
  }
}
