import type { QueryClient } from '@tanstack/react-query';
import type { Order } from '../../client';
import { applyProductEvent } from '../listings/live-patch';
import { applyOrderEvent } from '../orders/live-patch';

/** Applies one verified delivery to its resource's one cache entry; returns an order if read. */
export function applyDelivery(
  queryClient: QueryClient,
  topic: string,
  payload: unknown,
): Order | null {
  if (topic.startsWith('products/')) applyProductEvent(queryClient, topic, payload);
  else if (topic.startsWith('orders/')) return applyOrderEvent(queryClient, payload);
  return null;
}
