import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isCredentialParam } from '../shared/query-credentials';

// How the proxy maps a browser URL to the upstream's: a `Link` the upstream issued goes back as it
// was (sealed with a MAC by this process), a query the browser wrote keeps the spec's parameters.

/** The browser's API prefix: `/api/2026-07/...` mirrors `{base_url}/2026-07/...`. */
const API_PREFIX = '/api/';
const VERSIONED_PATH = /^\/\d{4}-\d{2}\/[A-Za-z0-9_./-]*$/;

/** The upstream path for a browser path, or null when it is not a versioned API path. */
export function upstreamPath(pathname: string): string | null {
  if (!pathname.startsWith(API_PREFIX)) return null;
  const rest = pathname.slice(API_PREFIX.length - 1);
  if (!VERSIONED_PATH.test(rest) || rest.includes('..') || rest.includes('//')) return null;
  return rest;
}

// A server restarted mid-walk reads the old links as the browser's own.
const SECRET = randomBytes(32);
const SEAL_PARAM = 'slabdesk_link';
const SEALED = new RegExp(`[?&]${SEAL_PARAM}=([A-Za-z0-9_-]{43})$`);
const sealOf = (pathAndQuery: string) =>
  createHmac('sha256', SECRET).update(pathAndQuery).digest('base64url');

const sealLink = (path: string, query: string) =>
  `${path}${query}${query === '' ? '?' : '&'}${SEAL_PARAM}=${sealOf(`${path}${query}`)}`;

/** The upstream's query when `search` ends with a valid seal of `path` and it; else null. */
function unsealedQuery(path: string, search: string): string | null {
  const match = SEALED.exec(search);
  if (!match) return null;
  const query = search.slice(0, match.index);
  const given = Buffer.from(match[1]!, 'base64url');
  const expected = Buffer.from(sealOf(`${path}${query}`), 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? query : null;
}

const COLLECTION = ['limit', 'fields', 'updated_at_min', 'page_info'];
/** The query parameters the spec documents for a read, by its path from the version segment. */
const DOCUMENTED: [RegExp, readonly string[]][] = [
  [/^\/(?:listings|products|inventory_items|inventory_levels)(?:\.json)?$/, COLLECTION],
  [/^\/orders(?:\.json)?$/, [...COLLECTION, 'status']],
  [/^\/(?:listings|products|orders)\/[^/]+\.json$/, ['fields']],
];

// Names that carry a secret however spelled (case, separators, a trailing `[]` set aside).
const SECRET_NAME =
  /(?:token|secret|passw(?:or)?d|bearer|credentials?|(?:^|api|access|private|client|secret|signing|session)key|^pwd|^auth(?:orization)?|^session(?:id)?)$/;
const SECRET_VALUE = /^\s*(?:bearer|basic)\s+\S/i;

function isQueryCredential(name: string, value: string): boolean {
  const bare = name
    .toLowerCase()
    .replace(/(?:\[[^\]]*\])+$/, '')
    .replace(/[^a-z0-9]/g, '');
  return isCredentialParam(name, value) || SECRET_NAME.test(bare) || SECRET_VALUE.test(value);
}

/** A query string as the upstream wrote it, less what looks like a credential, byte for byte. */
function withoutCredentials(search: string): string {
  const raw = search.startsWith('?') ? search.slice(1) : search;
  if (raw === '') return '';
  const kept = raw.split('&').filter((pair) => {
    const [entry] = new URLSearchParams(pair);
    return entry === undefined || !isQueryCredential(entry[0], entry[1]);
  });
  return kept.length === 0 ? '' : `?${kept.join('&')}`;
}

/** Each `Link` URL on the upstream's origin pointed here, sealed, credentials out; others left. */
export function rewriteLinkHeader(
  link: string,
  upstreamBase: string,
  proxyOrigin: string,
  context: string = upstreamBase,
): string {
  const base = new URL(upstreamBase);
  const basePath = base.pathname.replace(/\/$/, '');
  return link.replace(/<([^>]*)>/g, (whole, raw: string) => {
    let url: URL;
    try {
      url = new URL(raw.trim(), context);
    } catch {
      return whole;
    }
    if (url.origin !== base.origin) return whole;
    // With the base's path prefix or without it (a server that does not know its own prefix).
    const path = url.pathname.startsWith(`${basePath}/`)
      ? url.pathname.slice(basePath.length)
      : url.pathname;
    if (upstreamPath(`/api${path}`) === null) return whole;
    return `<${proxyOrigin}/api${sealLink(path, withoutCredentials(url.search))}>`;
  });
}

/** The upstream URL for a browser URL, or null: a sealed `Link` as issued, else documented params. */
export function upstreamUrlOf(incoming: URL, base: string, method = 'GET'): string | null {
  const path = upstreamPath(incoming.pathname);
  if (path === null) return null;
  const read = method === 'GET' || method === 'HEAD';
  const issued = read ? unsealedQuery(path, incoming.search) : null;
  if (issued !== null) return `${base}${path}${withoutCredentials(issued)}`;
  const rest = path.replace(/^\/\d{4}-\d{2}/, '');
  const allowed = (read && DOCUMENTED.find(([pattern]) => pattern.test(rest))?.[1]) || [];
  const kept = new URLSearchParams();
  for (const [name, value] of incoming.searchParams) {
    if (allowed.includes(name) && !isQueryCredential(name, value)) kept.append(name, value);
  }
  const query = kept.toString();
  return `${base}${path}${query ? `?${query}` : ''}`;
}
