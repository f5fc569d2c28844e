export const ALL_SCOPES = [
  'read_listings',
  'write_listings',
  'read_inventory',
  'write_inventory',
  'read_orders',
  'write_orders',
  'read_fulfillments',
  'write_fulfillments',
  'read_catalog',
  'read_seller',
] as const;

export type ApiScope = (typeof ALL_SCOPES)[number];

/** True when the granted scopes cover `required`; a `write_` scope implies its `read_` counterpart. */
export function hasScope(granted: readonly string[], required: ApiScope): boolean {
  if (granted.includes(required)) return true;
  return required.startsWith('read_') && granted.includes(required.replace(/^read_/, 'write_'));
}
