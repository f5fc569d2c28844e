/** Which scope each part of the dashboard needs, as the spec's endpoint table says. */
export const REQUIRED_SCOPES = {
  listings: 'read_listings',
  writeListings: 'write_listings',
  orders: 'read_orders',
  inventory: 'read_inventory',
} as const;

/** Whether a key's scopes let it read a resource; scopes the ping did not show refuse nothing. */
export const mayRead = (
  scopes: readonly string[] | undefined,
  resource: 'listings' | 'orders',
): boolean =>
  scopes === undefined ||
  scopes.includes(`read_${resource}`) ||
  scopes.includes(`write_${resource}`);
