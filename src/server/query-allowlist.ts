import { isCredentialParam } from '../sandbox/platform/query-credentials';

/** The query parameters of the spec's collections (listings, orders, inventory items, levels). */
const COLLECTION = ['limit', 'fields', 'updated_at_min', 'page_info'] as const;

/**
 * The query parameters the spec documents for a call, by method and path from the version segment.
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
 * The forwarded query: documented parameters only (a credential spelled a new way is not one), and
 * none whose value looks like a key.
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
