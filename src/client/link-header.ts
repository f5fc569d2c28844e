/** One link of a `Link` header: its target and its parameters (names lower-cased). */
export interface LinkValue {
  target: string;
  params: Record<string, string>;
}

/** Character tests by code, not by regular expression per character (the parser runs per page). */
const isSpaceOrTab = (code: number) => code === 0x20 || code === 0x09;
const TOKEN_CHARS = new Uint8Array(128);
for (const char of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") {
  TOKEN_CHARS[char.charCodeAt(0)] = 1;
}
const isTokenChar = (code: number) => code < 128 && TOKEN_CHARS[code] === 1;
/** Ends an unquoted value: `;`, `,` or whitespace (as `\s` would, within Latin-1). */
const endsToken = (code: number) =>
  code === 0x3b ||
  code === 0x2c ||
  code === 0x20 ||
  (code >= 0x09 && code <= 0x0d) ||
  code === 0xa0 ||
  (code > 0xff && /\s/.test(String.fromCharCode(code)));

/**
 * Parses a `Link` header as RFC 8288 section 3 defines it: a comma-separated list of
 * `<target>` followed by `;`-separated parameters, each a name (case-insensitive), optional
 * whitespace around `=`, and a token or quoted-string value (with `\` escapes). A comma or `;`
 * inside `<...>` or a quoted string belongs to it. Of a parameter given twice in one link, the
 * first counts (section 3.3 for `rel`). Garbage between links is skipped, not fatal.
 */
export function parseLinkValues(header: string | null | undefined): LinkValue[] {
  const links: LinkValue[] = [];
  if (!header) return links;
  let i = 0;
  const n = header.length;
  const skipSpace = () => {
    while (i < n && isSpaceOrTab(header.charCodeAt(i))) i++;
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
      while (i < n && isTokenChar(header.charCodeAt(i))) i++;
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
          while (i < n && !endsToken(header.charCodeAt(i))) i++;
          value = header.slice(start, i);
        }
      }
      if (name !== '' && !(name in params)) params[name] = value;
    }
    links.push({ target, params: { ...params } });
  }
  return links;
}

/**
 * The targets of a `Link` header by relation type: `rel` may name several types separated by
 * spaces, compared case-insensitively (RFC 8288 section 2.1.1), so they are lower-cased here.
 * Where two links share a type, the first is kept.
 */
export function parseLinkHeader(header: string | null | undefined): Record<string, string> {
  const rels: Record<string, string> = {};
  for (const link of parseLinkValues(header)) {
    const rel = link.params.rel;
    if (rel === undefined) continue;
    for (const type of rel.trim().toLowerCase().split(/\s+/)) {
      if (type !== '' && !(type in rels)) rels[type] = link.target;
    }
  }
  return rels;
}
