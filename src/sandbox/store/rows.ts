import type { RowOf, TableName } from './migrations';

/** Row shapes of the sandbox's tables (migrations.ts), a column narrowed where the code knows more. */
type Narrowed<Table extends TableName, Known> = Omit<RowOf<Table>, keyof Known> & Known;

export const SELLER_STATES = [
  'active',
  'not_approved',
  'frozen',
  'banned',
  'not_eligible',
  'paused',
] as const;
export type SellerState = (typeof SELLER_STATES)[number];

export type SellerRow = Narrowed<'sellers', { state: SellerState }>;

export type ApiKeyRow = Narrowed<'api_keys', { mode: 'live' | 'test' }>;

export type CertRow = RowOf<'certs'>;

/** Why a card is held out of the marketplace regardless of any listing. */
export const ITEM_HOLDS = ['flagged', 'pulled_into_pack', 'in_trade', 'awaiting_review'] as const;
export type ItemHold = (typeof ITEM_HOLDS)[number];

export type InventoryItemRow = Narrowed<'inventory_items', { hold: ItemHold | null }>;

export type ListingStatus = 'active' | 'draft' | 'archived';

export type ListingRow = Narrowed<'listings', { status: ListingStatus }>;

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

export type OrderRow = RowOf<'orders'>;

/** An order joined with what its single line item needs from the listing. */
export interface OrderWithLineRow extends OrderRow {
  line_title: string;
  line_sku: string;
  line_price_cents: number;
  line_inventory_item_id: string;
  line_is_lot: number;
  line_item_ids: string;
}

export type InventoryLevelRow = RowOf<'inventory_levels'>;

/** Whose records a request may see: the seller, and live or test. */
export interface Scope {
  sellerId: string;
  test: boolean;
}
