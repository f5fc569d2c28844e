import type { Store } from '../store';
import type { InventoryItemRow, ListingRow, OrderRow } from '../store/rows';
import { isoTime } from '../platform/time';

export const VAULT_LOCATION_ID = 'loc_vault';
export const sellerLocationId = (sellerId: string) => `loc_seller_${sellerId}`;

const HOLD_DETAIL: Record<string, string> = {
  flagged: 'Flagged by the marketplace for review; it cannot be listed',
  pulled_into_pack: 'Pulled into a pack; it is no longer yours to list',
  in_trade: 'Committed to a trade',
  awaiting_review: 'Awaiting submission review',
};

/** Why an unlisted card's latest listing is off the marketplace, and whether it may be relisted. */
const OFF_MARKET: Record<string, (listing: ListingRow) => [detail: string, relistable: boolean]> = {
  scheduled: (l) => [`Scheduled to go live at ${isoTime(l.scheduled_go_live_at)}`, true],
  pending_review: () => ['Listed and awaiting the marketplace review before it goes live', false],
  expired: () => ['The listing window ended without a sale', true],
  deactivated_by_seller: () => ['You deactivated the listing', true],
  order_cancelled: () => ['The sale was cancelled; the card is yours to relist', true],
  draft: () => ['The listing is a draft, off the marketplace', true],
};

/** Why a card is or is not available, from its hold, its latest listing and that listing's order. */
export function availabilityOf(
  item: InventoryItemRow,
  listing: ListingRow | undefined,
  order: OrderRow | undefined,
) {
  const off = (reason: string, detail: string, canReactivate = false, atHub = false) =>
    ({ available: 0, reason, detail, canReactivate, atHub }) as const;
  if (order && order.cancelled_at === null) {
    if (order.stage >= 1) {
      return off('shipped', `Shipped to the hub for order ${order.name}`, false, true);
    }
    const shipBy = isoTime(order.ship_by);
    return off('sold', `Sold in order ${order.name}; ship it to the hub by ${shipBy}`);
  }
  if (item.hold) return off(item.hold, HOLD_DETAIL[item.hold] ?? item.hold);
  if (!listing) return off('not_listed', 'In your inventory and never listed', true);
  if (listing.status === 'active') {
    const detail = 'Listed and available to buyers';
    return { available: 1, reason: 'listed', detail, canReactivate: false, atHub: false };
  }
  const reason = Object.hasOwn(OFF_MARKET, listing.unavailable_reason ?? '')
    ? listing.unavailable_reason!
    : 'draft';
  const [detail, relistable] = OFF_MARKET[reason]!(listing);
  return off(reason, detail, relistable);
}

/** Recomputes and stores the inventory level of each card. Call inside the write's transaction. */
export function refreshLevels(store: Store, itemIds: Iterable<string>, now: number): void {
  for (const itemId of itemIds) {
    const item = store.catalog.itemById(itemId);
    if (!item) continue;
    const listing = store.listings.latestForItem(itemId);
    const order = listing ? store.orders.forListing(listing.id) : undefined;
    const a = availabilityOf(item, listing, order);
    store.levels.put({
      item_seq: item.seq,
      inventory_item_id: item.id,
      seller_id: item.seller_id,
      test: item.test,
      location_id: a.atHub ? VAULT_LOCATION_ID : sellerLocationId(item.seller_id),
      available: a.available,
      reason: a.reason,
      reason_detail: a.detail,
      can_reactivate: a.canReactivate ? 1 : 0,
      updated_at: now,
    });
  }
}
