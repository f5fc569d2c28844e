/** The one query-key factory of orders. */
export const orderKeys = {
  all: ['orders'] as const,
  lists: () => [...orderKeys.all, 'list'] as const,
  /** Every order (`status=any`), kept: each status filter is a view of it. */
  kept: () => [...orderKeys.lists(), 'kept'] as const,
  detail: (idOrCode: string) => [...orderKeys.all, 'detail', idOrCode] as const,
};
