import { isCredentialParam } from '../shared/query-credentials';

/** The query parameters of the spec's collections (listings, orders, inventory items, levels). */
const COLLECTION = ['limit', 'fields', 'updated_at_min', 'page_info'] as const;

/**
 * The query parameters the spec documents for a call, by method and path from the version segment
 * (a collection with or without `.json`).
 */
export function documentedParams(method: string, path: string): readonly string[] {
  if (method !== 'GET' && method !== 'HEAD') return [];
  const rest = path.replace(/^\/\d{4}-\d{2}/, '');
  if (/^\/(?:listings|products|inventory_items|inventory_levels)(?:\.json)?$/.test(rest)) {
    return COLLECTION;
  }
  if (/^\/orders(?:\.json)?$/.test(rest)) return [...COLLECTION, 'status'];
  if (/^\/(?:listings|products|orders)\/[^/]+\.json$/.test(rest)) return ['fields'];
  return [];
}

/**
 * Names that carry a secret however they are spelled: case, separators and a trailing `[]` or
 * `[0]` set aside (`access.token[]`, `accessToken`, `client_secret`, `X-Service-Access-Token`).
 */
const SECRET_NAME =
  /(?:token|secret|passw(?:or)?d|bearer|credentials?|(?:^|api|access|private|client|secret|signing|session)key|^pwd|^auth(?:orization)?|^session(?:id)?)$/;
/** Values that carry a secret: a key of the service, or an authorization header's value. */
const SECRET_VALUE = /^\s*(?:bearer|basic)\s+\S/i;

/** Whether one query parameter looks like a credential, by its name or by its value. */
export function isQueryCredential(name: string, value: string): boolean {
  const bare = name
    .toLowerCase()
    .replace(/(?:\[[^\]]*\])+$/, '')
    .replace(/[^a-z0-9]/g, '');
  return isCredentialParam(name, value) || SECRET_NAME.test(bare) || SECRET_VALUE.test(value);
}

/**
 * The forwarded query of a request the browser wrote itself: documented parameters only, and none
 * that looks like a credential.
 */
export function forwardedQuery(
  params: URLSearchParams,
  method: string,
  path: string,
): URLSearchParams {
  const allowed = documentedParams(method, path);
  const kept = new URLSearchParams();
  for (const [name, value] of params) {
    if (allowed.includes(name) && !isQueryCredential(name, value)) kept.append(name, value);
  }
  return kept;
}

/**
 * A query string as the upstream wrote it (`?a=1&b=2` or empty) without the parameters that look
 * like credentials; every other pair is kept byte for byte, in its order.
 */
export function withoutCredentials(search: string): string {
  const raw = search.startsWith('?') ? search.slice(1) : search;
  if (raw === '') return '';
  const kept = raw.split('&').filter((pair) => {
    const [entry] = new URLSearchParams(pair);
    return entry === undefined || !isQueryCredential(entry[0], entry[1]);
  });
  return kept.length === 0 ? '' : `?${kept.join('&')}`;
}
