import { DEFAULT_ORIGIN, PUBLIC_ORIGIN_KEY, type EventPayloads } from '../domain/events';
import type { Store } from '../store';
import { productView, publicUrls } from './listing-views';
import { orderView } from './order-view';

/** The public URLs of the running sandbox, for payloads written outside a request. */
export function storeUrls(store: Store) {
  return publicUrls(store.meta.get(PUBLIC_ORIGIN_KEY) ?? DEFAULT_ORIGIN);
}

/** Webhook payloads: a product's product shape, an order's single view. */
export const eventPayloads: EventPayloads = {
  product: (row, store) => productView(row, storeUrls(store)),
  order: (row) => orderView(row, true),
};
