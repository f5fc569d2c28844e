/** Row shapes of the sandbox's tables, as better-sqlite3 returns them (booleans as 0/1, times as epoch ms). */

export const SELLER_STATES = [
  'active',
  'not_approved',
  'frozen',
  'banned',
  'not_eligible',
  'paused',
] as const;
export type SellerState = (typeof SELLER_STATES)[number];

export interface SellerRow {
  id: string;
  name: string;
  state: SellerState;
  write_approved: number;
  listing_cap: number | null;
  deleted: number;
  created_at: number;
}

export interface ApiKeyRow {
  id: string;
  seller_id: string;
  token_hash: string;
  mode: 'live' | 'test';
  scopes: string;
  revoked_at: number | null;
  created_at: number;
}

export interface CertRow {
  grader: string;
  cert_number: string;
  title: string;
  grade: string;
  year: number | null;
  card_set: string | null;
  player: string | null;
  category: string | null;
  variant: string | null;
}

/** Why a card is held out of the marketplace regardless of any listing. */
export const ITEM_HOLDS = ['flagged', 'pulled_into_pack', 'in_trade', 'awaiting_review'] as const;
export type ItemHold = (typeof ITEM_HOLDS)[number];

export interface InventoryItemRow {
  seq: number;
  id: string;
  seller_id: string;
  test: number;
  cert_number: string;
  grader: string;
  grade: string;
  title: string;
  player: string | null;
  year: number | null;
  card_set: string | null;
  variant: string | null;
  category: string | null;
  cost_cents: number;
  hold: ItemHold | null;
  created_at: number;
  updated_at: number;
}

export type ListingStatus = 'active' | 'draft' | 'archived';

export interface ListingRow {
  seq: number;
  id: string;
  seller_id: string;
  test: number;
  title: string;
  description: string;
  status: ListingStatus;
  unavailable_reason: string | null;
  price_cents: number;
  minimum_offer_cents: number | null;
  accepts_offers: number;
  accepts_trades: number;
  auto_relist: number;
  promoted: number;
  duration_hours: number;
  window_ends_at: number | null;
  scheduled_go_live_at: number | null;
  is_lot: number;
  card_count: number;
  primary_item_id: string;
  images: string;
  handle: string;
  created_at: number;
  listed_at: number | null;
  updated_at: number;
}

/** A listing joined with its primary card, as the read views need it. */
export interface ListingWithCardRow extends ListingRow {
  card_title: string;
  card_cert_number: string;
  card_grader: string;
  card_grade: string;
  card_year: number | null;
  card_set: string | null;
  card_category: string | null;
  card_player: string | null;
  card_variant: string | null;
  /** Comma-separated ids of every member card, in position order. */
  member_ids: string;
}

export interface OrderRow {
  seq: number;
  id: string;
  seller_id: string;
  test: number;
  name: string;
  order_number: number;
  listing_id: string;
  line_item_id: string;
  sale_channel: string;
  delivery_method: string;
  subtotal_cents: number;
  tax_cents: number;
  refunded_cents: number;
  fee_cents: number;
  financial_status: string;
  stage: number;
  cancel_reason: string | null;
  cancelled_at: number | null;
  closed_at: number | null;
  sold_at: number;
  ship_by: number;
  cancel_after: number;
  tracking_number: string | null;
  carrier_code: string;
  label_url: string | null;
  shipped_at: number | null;
  delivered_to_hub_at: number | null;
  authenticated_at: number | null;
  buyer_shipped_at: number | null;
  buyer_delivered_at: number | null;
  paid_at: number | null;
  payout_cents: number | null;
  created_at: number;
  updated_at: number;
}

/** An order joined with what its single line item needs from the listing. */
export interface OrderWithLineRow extends OrderRow {
  line_title: string;
  line_sku: string;
  line_price_cents: number;
  line_inventory_item_id: string;
  line_is_lot: number;
  line_item_ids: string;
}

export interface InventoryLevelRow {
  item_seq: number;
  inventory_item_id: string;
  seller_id: string;
  test: number;
  location_id: string;
  available: number;
  reason: string;
  reason_detail: string;
  can_reactivate: number;
  updated_at: number;
}

/** Whose records a request may see: the seller, and live or test. */
export interface Scope {
  sellerId: string;
  test: boolean;
}
