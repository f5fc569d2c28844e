import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The parameter a rewritten `Link` carries last: a MAC of the upstream path and query it points
 * at, so the proxy can tell a URL the upstream issued from one the browser wrote.
 */
export const LINK_SEAL_PARAM = 'slabdesk_link';

/** This process's secret: a server restarted mid-walk reads the old links as the browser's own. */
const SECRET = randomBytes(32);

const sealOf = (pathAndQuery: string) =>
  createHmac('sha256', SECRET).update(pathAndQuery).digest('base64url');

/** `path` + `query` (`?...` or empty) with the seal appended as the last parameter. */
export function sealLink(path: string, query: string): string {
  return `${path}${query}${query === '' ? '?' : '&'}${LINK_SEAL_PARAM}=${sealOf(`${path}${query}`)}`;
}

const SEALED = new RegExp(`[?&]${LINK_SEAL_PARAM}=([A-Za-z0-9_-]{43})$`);

/**
 * The upstream's query (`?...` or empty) when `search` ends with a valid seal of `path` and it;
 * null when unsealed or forged.
 */
export function unsealedQuery(path: string, search: string): string | null {
  const match = SEALED.exec(search);
  if (!match) return null;
  const query = search.slice(0, match.index);
  const given = Buffer.from(match[1]!, 'base64url');
  const expected = Buffer.from(sealOf(`${path}${query}`), 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? query : null;
}
