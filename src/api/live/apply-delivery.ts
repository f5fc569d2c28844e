import type { QueryClient } from '@tanstack/react-query';
import type { Order } from '../../client';
import { applyProductEvent } from '../listings/live-patch';
import { applyOrderEvent } from '../orders/live-patch';

/**
 * Applies one verified delivery to the one cache entry of its resource (the money figures and the
 * ship queue are views of it). Returns the order of an `orders/*` delivery, if read.
 */
export function applyDelivery(
  queryClient: QueryClient,
  topic: string,
  payload: unknown,
): Order | null {
  if (topic.startsWith('products/')) applyProductEvent(queryClient, topic, payload);
  else if (topic.startsWith('orders/')) return applyOrderEvent(queryClient, payload);
  return null;
}
