import type { Store } from '../store';
import type { InventoryItemRow, InventoryLevelRow, ListingRow, OrderRow } from '../store/rows';
import { isoTime } from '../platform/time';

export const VAULT_LOCATION_ID = 'loc_vault';
export const sellerLocationId = (sellerId: string) => `loc_seller_${sellerId}`;

interface Availability {
  available: 0 | 1;
  reason: string;
  detail: string;
  canReactivate: boolean;
  atHub: boolean;
}

const HOLD_DETAIL: Record<string, string> = {
  flagged: 'Flagged by the marketplace for review; it cannot be listed',
  pulled_into_pack: 'Pulled into a pack; it is no longer yours to list',
  in_trade: 'Committed to a trade',
  awaiting_review: 'Awaiting submission review',
};

/** Why a card is or is not available, from its hold, its latest listing and that listing's order. */
export function availabilityOf(
  item: InventoryItemRow,
  listing: ListingRow | undefined,
  order: OrderRow | undefined,
): Availability {
  const gone = (reason: string, detail: string, atHub = false): Availability => ({
    available: 0,
    reason,
    detail,
    canReactivate: false,
    atHub,
  });
  const relistable = (reason: string, detail: string): Availability => ({
    available: 0,
    reason,
    detail,
    canReactivate: true,
    atHub: false,
  });
  if (order && order.cancelled_at === null) {
    if (order.stage >= 1)
      return gone('shipped', `Shipped to the hub for order ${order.name}`, true);
    return gone(
      'sold',
      `Sold in order ${order.name}; ship it to the hub by ${isoTime(order.ship_by)}`,
    );
  }
  if (item.hold) return gone(item.hold, HOLD_DETAIL[item.hold] ?? item.hold);
  if (!listing) return relistable('not_listed', 'In your inventory and never listed');
  if (listing.status === 'active') {
    return {
      available: 1,
      reason: 'listed',
      detail: 'Listed and available to buyers',
      canReactivate: false,
      atHub: false,
    };
  }
  switch (listing.unavailable_reason) {
    case 'scheduled':
      return relistable(
        'scheduled',
        `Scheduled to go live at ${isoTime(listing.scheduled_go_live_at)}`,
      );
    case 'pending_review':
      return gone(
        'pending_review',
        'Listed and awaiting the marketplace review before it goes live',
      );
    case 'expired':
      return relistable('expired', 'The listing window ended without a sale');
    case 'deactivated_by_seller':
      return relistable('deactivated_by_seller', 'You deactivated the listing');
    case 'order_cancelled':
      return relistable('order_cancelled', 'The sale was cancelled; the card is yours to relist');
    default:
      return relistable('draft', 'The listing is a draft, off the marketplace');
  }
}

/** Recomputes and stores the inventory level of each card. Call inside the write's transaction. */
export function refreshLevels(store: Store, itemIds: Iterable<string>, now: number): void {
  for (const itemId of itemIds) {
    const item = store.catalog.itemById(itemId);
    if (!item) continue;
    const listing = store.listings.latestForItem(itemId);
    const order = listing ? store.orders.forListing(listing.id) : undefined;
    const a = availabilityOf(item, listing, order);
    const row: InventoryLevelRow = {
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
    };
    store.levels.put(row);
  }
}
