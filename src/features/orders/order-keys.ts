import type { OrderStatusFilter } from '../../client';

/** The one query-key factory of orders. */
export const orderKeys = {
  all: ['orders'] as const,
  lists: () => [...orderKeys.all, 'list'] as const,
  list: (status: OrderStatusFilter) => [...orderKeys.lists(), { status }] as const,
  details: () => [...orderKeys.all, 'detail'] as const,
  detail: (idOrCode: string) => [...orderKeys.details(), idOrCode] as const,
};
