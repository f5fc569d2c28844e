import { ApiError } from '../platform/api-error';
import type { Store } from '../store';
import type { InventoryItemRow, SellerRow, Scope } from '../store/rows';
import type { FaultSwitches } from './faults';

/** The marketplace rules every listing write answers to: approval, blocklist, caps, availability. */

export interface WriteContext {
  store: Store;
  faults: FaultSwitches;
  now: number;
  scope: Scope;
  seller: SellerRow;
  /** The request came with a live key (write approval applies to live keys only). */
  liveKey: boolean;
  /** Photos may be plain-http addresses on this machine (SandboxOptions.loopbackImages). */
  loopbackImages?: boolean;
}

const forbidden = (rule: string, message: string) =>
  new ApiError(403, 'listing_write_forbidden', `${rule}: ${message}`, { extra: { rule } });

export function conflict(message: string): ApiError {
  return new ApiError(409, 'listing_write_conflict', message);
}

export function notListable(reason: string, message: string): ApiError {
  return new ApiError(422, 'card_not_listable', message, { extra: { reason } });
}

/** Rule 5: the write scope on a live key requires the seller's write approval. */
export function assertWriteApproved(ctx: WriteContext): void {
  if (ctx.liveKey && ctx.seller.write_approved !== 1) {
    throw forbidden(
      'write_approval',
      'this seller is not approved for listing writes with a live key',
    );
  }
}

export function assertNotBlocklisted(ctx: WriteContext, certNumber: string): void {
  if (ctx.faults.get().blocklisted_certs.includes(certNumber)) {
    throw forbidden(
      'counterfeit_blocklist',
      `cert ${certNumber} is on the counterfeit blocklist and cannot be listed`,
    );
  }
}

/** The seller's tier cap on live listings: one more must still fit. */
export function assertUnderCap(ctx: WriteContext): void {
  const cap = ctx.seller.listing_cap;
  if (cap === null) return;
  const live = ctx.store.listings.countLive(ctx.scope);
  if (live >= cap) {
    throw forbidden(
      'listing_cap',
      `the seller's tier allows ${cap} live listings and ${live} are live`,
    );
  }
}

const HOLD_MESSAGES: Record<string, string> = {
  flagged: 'is flagged by the marketplace for review',
  pulled_into_pack: 'was pulled into a pack',
  in_trade: 'is committed to a trade',
  awaiting_review: 'is awaiting submission review',
};

/** Whether the card can go (back) on sale: no hold, other listing, pending order, nor sale. */
export function assertCardListable(
  store: Store,
  item: InventoryItemRow,
  ownListingId?: string,
): void {
  if (item.hold) {
    throw notListable(
      item.hold,
      `card ${item.id} ${HOLD_MESSAGES[item.hold] ?? `is held (${item.hold})`}`,
    );
  }
  const latest = store.listings.latestForItem(item.id);
  if (!latest || latest.id === ownListingId) return;
  if (latest.status === 'active') {
    throw conflict(`card ${item.id} is already actively listed in listing ${latest.id}`);
  }
  if (latest.status === 'draft') {
    const what =
      latest.unavailable_reason === 'pending_review'
        ? 'which is pending review'
        : latest.unavailable_reason === 'scheduled'
          ? 'which is scheduled to go live'
          : 'a draft; reactivate that listing instead';
    throw conflict(`card ${item.id} is already in listing ${latest.id}, ${what}`);
  }
  const order = store.orders.forListing(latest.id);
  if (order && order.cancelled_at === null) {
    if (order.financial_status === 'authorized') {
      throw conflict(`card ${item.id} is reserved by pending order ${order.name}`);
    }
    if (order.stage >= 1) {
      throw notListable('shipped', `card ${item.id} was sold and shipped in order ${order.name}`);
    }
    throw notListable('sold', `card ${item.id} was sold in order ${order.name}`);
  }
}
