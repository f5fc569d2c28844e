import { isCredentialParam } from '../sandbox/platform/query-credentials';

/** The query parameters of the spec's collections (listings, orders, inventory items, levels). */
const COLLECTION = ['limit', 'fields', 'updated_at_min', 'page_info'] as const;

/**
 * The query parameters the spec documents for a call, by method and path (the path from the
 * version segment on, e.g. `/2026-07/orders.json`): collections take `limit`, `fields`,
 * `updated_at_min` and `page_info` (orders also `status`), single views `fields`; `/ping`,
 * locations and every write take none.
 */
export function documentedParams(method: string, path: string): readonly string[] {
  if (method !== 'GET' && method !== 'HEAD') return [];
  const rest = path.replace(/^\/\d{4}-\d{2}/, '');
  if (/^\/(?:listings|products|inventory_items|inventory_levels)\.json$/.test(rest)) {
    return COLLECTION;
  }
  if (rest === '/orders.json') return [...COLLECTION, 'status'];
  if (/^\/(?:listings|products|orders)\/[^/]+\.json$/.test(rest)) return ['fields'];
  return [];
}

/**
 * The query the proxy forwards: only the documented parameters (an allowlist: a credential
 * spelled any new way is not one of them), and none whose value looks like a key.
 */
export function forwardedQuery(
  params: URLSearchParams,
  method: string,
  path: string,
): URLSearchParams {
  const allowed = documentedParams(method, path);
  const kept = new URLSearchParams();
  for (const [name, value] of params) {
    if (allowed.includes(name) && !isCredentialParam(name, value)) kept.append(name, value);
  }
  return kept;
}
