/** A seller's saved views of a table, kept by the hub per account: the tables and the bounds. */
export const VIEWS_PATH = '/hub/views';
export const VIEW_TABLES = ['listings', 'orders', 'inventory'] as const;
export type ViewTable = (typeof VIEW_TABLES)[number];
export const VIEW_LIMITS = { name: 60, search: 2_048, perTable: 50 } as const;
