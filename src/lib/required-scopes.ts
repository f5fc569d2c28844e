/** Which scope each part of the dashboard needs, as the spec's endpoint table says. */
export const REQUIRED_SCOPES = {
  listings: 'read_listings',
  writeListings: 'write_listings',
  orders: 'read_orders',
  inventory: 'read_inventory',
} as const;
