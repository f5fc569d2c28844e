import { readKeptMap, writeKept } from '../local-store';

/** Which sales the seller has seen on Orders (last visit, ids shown since), in this browser. */
const KEY = 'slabdesk.orders.seen';
/** Enough for every recent sale; older ids are older than the last visit anyway. */
const MAX_IDS = 2000;

export interface SeenOrders {
  /** ISO time of the last visit to Orders, undefined before the first. */
  lastVisit: string | undefined;
  ids: ReadonlySet<string>;
}

export function readSeenOrders(): SeenOrders {
  const kept = readKeptMap<unknown>(KEY);
  return {
    lastVisit: typeof kept.lastVisit === 'string' ? kept.lastVisit : undefined,
    ids: new Set(Array.isArray(kept.ids) ? kept.ids.filter((id) => typeof id === 'string') : []),
  };
}

/** Notes the shown orders as seen, and now as the last visit. */
export function markOrdersSeen(shownIds: Iterable<string>, now = new Date()): void {
  const before = readSeenOrders();
  const ids = [...new Set([...before.ids, ...shownIds])].slice(-MAX_IDS);
  writeKept(KEY, { lastVisit: now.toISOString(), ids }); // refused: only the marks are lost
}

/** True for a sale not seen: sold after the last visit (a first visit marks none), not shown. */
export function isNewSale(
  order: { id: string; svc_sold_at?: string | null | undefined },
  seen: SeenOrders,
): boolean {
  if (seen.lastVisit === undefined || seen.ids.has(order.id) || !order.svc_sold_at) return false;
  return Date.parse(order.svc_sold_at) > Date.parse(seen.lastVisit);
}
