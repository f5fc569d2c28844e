/** Runs of characters, matched in one step from a position (sticky), not one test per character. */
const SPACES = /[ \t]*/y;
const TOKEN = /[!#$%&'*+\-.^_`|~0-9A-Za-z]*/y;
const UNQUOTED_VALUE = /[^;,\s]*/y;

/** The position past the run `pattern` matches at `from`; `from` itself at or past the end. */
function past(pattern: RegExp, text: string, from: number): number {
  if (from >= text.length) return from;
  pattern.lastIndex = from;
  pattern.test(text);
  return pattern.lastIndex;
}

/** Link targets by relation type (lower-cased, RFC 8288 2.1.1); the first link of a type wins. */
export function parseLinkHeader(header: string | null | undefined): Record<string, string> {
  const rels: Record<string, string> = {};
  if (!header) return rels;
  let i = 0;
  const n = header.length;
  const skipSpace = () => {
    i = past(SPACES, header, i);
  };
  const skipToNextLink = () => {
    // Past the next comma outside quotes and angle brackets.
    let quoted = false;
    while (i < n) {
      const c = header[i]!;
      if (quoted) {
        if (c === '\\') i++;
        else if (c === '"') quoted = false;
      } else if (c === '"') quoted = true;
      else if (c === ',') {
        i++;
        return;
      }
      i++;
    }
  };
  while (i < n) {
    skipSpace();
    if (header[i] === ',') {
      i++;
      continue;
    }
    if (header[i] !== '<') {
      skipToNextLink();
      continue;
    }
    const close = header.indexOf('>', i + 1);
    if (close < 0) break;
    const target = header.slice(i + 1, close).trim();
    i = close + 1;
    const params: Record<string, string> = Object.create(null) as Record<string, string>;
    for (;;) {
      skipSpace();
      if (i >= n) break;
      if (header[i] === ',') {
        i++;
        break;
      }
      if (header[i] !== ';') {
        // Not a parameter: the rest of this link is unreadable; keep what was read.
        skipToNextLink();
        break;
      }
      i++;
      skipSpace();
      const nameStart = i;
      i = past(TOKEN, header, i);
      const name = header.slice(nameStart, i).toLowerCase();
      skipSpace();
      let value = '';
      if (header[i] === '=') {
        i++;
        skipSpace();
        if (header[i] === '"') {
          i++;
          while (i < n && header[i] !== '"') {
            if (header[i] === '\\' && i + 1 < n) i++;
            value += header[i];
            i++;
          }
          i++;
        } else {
          const start = i;
          i = past(UNQUOTED_VALUE, header, i);
          value = header.slice(start, i);
        }
      }
      if (name !== '' && !(name in params)) params[name] = value;
    }
    // Parameters per RFC 8288 section 3: a repeated one's first counts.
    for (const type of params.rel?.trim().toLowerCase().split(/\s+/) ?? []) {
      if (type !== '' && !(type in rels)) rels[type] = target;
    }
  }
  return rels;
}

/** `parseLinkHeader`, each target made absolute against `base` (RFC 3986 section 5). */
export function parseLinkHeaderAt(
  header: string | null | undefined,
  base: string,
): Record<string, string> {
  const rels = parseLinkHeader(header);
  for (const [rel, target] of Object.entries(rels)) {
    if (URL.canParse(target, base)) rels[rel] = new URL(target, base).href;
  }
  return rels;
}
