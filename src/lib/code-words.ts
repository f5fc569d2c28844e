import { ownEntry } from '../shared/own-entry';

/** The codes a seller would read, in their words: one map per resource. */

/** A listing's `status` and the dashboard's own states of a listing. */
export const LISTING_STATUS_WORDS: Record<string, string> = {
  active: 'Active',
  draft: 'Draft',
  inactive: 'Inactive',
  archived: 'Ended',
  scheduled: 'Scheduled',
  listed: 'Listed',
  pending_review: 'In review',
};

/** Why a listing or a card is not for sale (`unavailable_reason`, `svc_unavailable_reason`). */
export const UNAVAILABLE_WORDS: Record<string, string> = {
  sold: 'Sold',
  deactivated_by_seller: 'Ended by you',
  expired: 'Expired',
  order_cancelled: 'Sale cancelled',
  flagged: 'Flagged for review',
  shipped: 'Shipped',
};

/** An order's status and its `financial_status`. */
export const ORDER_STATUS_WORDS: Record<string, string> = {
  open: 'Open',
  closed: 'Closed',
  cancelled: 'Cancelled',
  authorized: 'Payment authorized',
  paid: 'Paid',
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
  voided: 'Voided',
  pending: 'Pending',
};

/** A card's category by its name. */
export const CATEGORY_WORDS: Record<string, string> = {
  baseball: 'Baseball',
  basketball: 'Basketball',
  football: 'Football',
  hockey: 'Hockey',
  soccer: 'Soccer',
  pokemon: 'Pokémon',
  magic: 'Magic: The Gathering',
  yugioh: 'Yu-Gi-Oh!',
  non_sport: 'Non-sport',
};

const ALL = [LISTING_STATUS_WORDS, UNAVAILABLE_WORDS, ORDER_STATUS_WORDS, CATEGORY_WORDS];

/** A code in words: from its resource's map, else "some_code" → "Some code". */
export function codeWords(code: string): string {
  for (const words of ALL) {
    const found = ownEntry(words, code);
    if (found !== undefined) return found;
  }
  const spaced = code.replace(/_/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
