import type { OrderFacts } from './sales-queries';

type OrderLines = Pick<OrderFacts, 'line_items' | 'cancelled_at'>;

/** Listings sold per the orders (`product_id`, not cancelled); unread cancellations name none. */
export function soldListingIds(orders: readonly OrderLines[]): Set<string> {
  const sold = new Set<string>();
  for (const order of orders) {
    if (order.cancelled_at !== null) continue;
    for (const line of order.line_items ?? []) {
      if (line?.product_id) sold.add(line.product_id);
    }
  }
  return sold;
}

/** Every card an order names (each line's card and a lot's members), cancelled or not. */
export function cardsNamedByOrders(orders: readonly OrderLines[]): Set<string> {
  const cards = new Set<string>();
  for (const order of orders) {
    for (const line of order.line_items ?? []) {
      if (line?.inventory_item_id) cards.add(line.inventory_item_id);
      for (const id of line?.svc_inventory_item_ids ?? []) if (id) cards.add(id);
    }
  }
  return cards;
}

/** Whether two id sets hold the same ids (a refresh that changed none keeps the derived rows). */
export function sameIds(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const id of a) if (!b.has(id)) return false;
  return true;
}
