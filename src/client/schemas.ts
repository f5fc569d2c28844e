/** zod schemas for the Partner API 2026-07, the client's types; unknown fields are dropped. */
import * as z from 'zod/mini';
import { fields, type Thunks } from '../shared/lazy-fields';
import type { Readable } from './tolerant-reader';
import { WebAddress } from './web-address';

// The page's Content-Security-Policy has no 'unsafe-eval': zod's compiled (eval) object parsers
// would be refused, and the probe for them is reported as a policy violation. Parse without them.
z.config({ jitless: true });

// ---------------------------------------------------------------------------------------------
// Scalars

/** An ISO 8601 UTC timestamp, as every timestamp of the API. */
export const Timestamp = z.iso.datetime({ offset: true });
/** A decimal dollar amount with two decimals, as the API sends money. */
export const Money = z
  .string()
  .check(z.regex(/^-?\d+\.\d{2}$/, 'must be a decimal amount like 12.50'));

export const GRADERS = ['PSA', 'BGS', 'SGC', 'CGC'] as const;
export const Grader = z.enum(GRADERS);
export type Grader = z.infer<typeof Grader>;

/** Listing statuses are a plain string: a pending-review status exists whose value is not shown. */
export const ListingStatus = z.string().check(z.minLength(1));

export const FINANCIAL_STATUSES = [
  'authorized',
  'paid',
  'partially_refunded',
  'refunded',
  'voided',
] as const;
export const FinancialStatus = z.enum(FINANCIAL_STATUSES);

/** The windows a listing can run for, in hours (7, 14, 21 and 30 days). */
export const DURATION_HOURS = [168, 336, 504, 720] as const;
export const DurationHours = z.literal(DURATION_HOURS);

// Listings. Each view requires the fields the spec documents for it; the rest is optional, and
// listing collections are read field by field (`readTolerant`).

/** The card nested in a listing (list view). `player`, `variant` and `url` are extras. */
export const ListingCard = z.object(
  fields({
    id: () => z.string(),
    title: () => z.string(),
    cert_number: () => z.string(),
    grader: () => Grader,
    grade: () => z.string(),
    year: () => z.nullable(z.int()),
    set: () => z.string(),
    category: () => z.string(),
    player: () => z.optional(z.nullable(z.string())),
    variant: () => z.optional(z.string()),
    url: () => z.optional(WebAddress),
  }),
);
export type ListingCard = z.infer<typeof ListingCard>;

/** Listing fields the spec does not show on reads; when omitted, the dashboard says so. */
const ListingExtras = {
  updated_at: () => z.optional(Timestamp),
  unavailable_reason: () => z.optional(z.nullable(z.string())),
  can_reactivate: () => z.optional(z.boolean()),
  description: () => z.optional(z.string()),
  minimum_offer: () => z.optional(z.nullable(Money)),
  accepts_trades: () => z.optional(z.boolean()),
  auto_relist: () => z.optional(z.boolean()),
  promoted: () => z.optional(z.boolean()),
  duration_hours: () => z.optional(z.int()),
  window_ends_at: () => z.optional(z.nullable(Timestamp)),
  scheduled_go_live_at: () => z.optional(z.nullable(Timestamp)),
  url: () => z.optional(WebAddress),
} satisfies Thunks;

/** GET /listings.json: one row. The documented fields, then the extras a server may send. */
export const ListingListItem = z.object(
  fields({
    id: () => z.string(),
    title: () => z.string(),
    status: () => ListingStatus,
    price: () => Money,
    card: () => ListingCard,
    is_lot: () => z.boolean(),
    card_count: () => z.int(),
    accepts_offers: () => z.boolean(),
    created_at: () => Timestamp,
    /** Null while a listing has never gone live (a scheduled draft). */
    listed_at: () => z.nullable(Timestamp),
    ...ListingExtras,
    /** Not in the documented list view: a cover photo when a server sends one. */
    images: () => z.optional(z.array(z.object({ src: WebAddress }))),
  }),
);
export type ListingListItem = z.infer<typeof ListingListItem>;

export const ListingImage = z.object(
  fields({
    id: () => z.optional(z.string()),
    position: () => z.optional(z.int()),
    src: () => WebAddress,
  }),
);

/** GET /listings/{id}.json: the documented single view, then the extras a server may send. */
export const ListingDetail = z.object(
  fields({
    // The extras first: the documented fields below (`unavailable_reason`, `can_reactivate`,
    // `url`) are required in this view and take their place.
    ...ListingExtras,
    id: () => z.string(),
    title: () => z.string(),
    status: () => ListingStatus,
    price: () => Money,
    // The list view's card, with `url` required and `year`, `set` and `category` optional.
    card: () =>
      z.extend(z.partial(ListingCard), {
        id: z.string(),
        title: z.string(),
        cert_number: z.string(),
        grader: Grader,
        grade: z.string(),
        url: WebAddress,
      }),
    unavailable_reason: () => z.nullable(z.string()),
    can_reactivate: () => z.boolean(),
    url: () => WebAddress,
    is_lot: () => z.optional(z.boolean()),
    card_count: () => z.optional(z.int()),
    accepts_offers: () => z.optional(z.boolean()),
    created_at: () => z.optional(Timestamp),
    listed_at: () => z.optional(z.nullable(Timestamp)),
    images: () => z.optional(z.array(ListingImage)),
  }),
);
export type ListingDetail = z.infer<typeof ListingDetail>;

/** POST /listings.json response (`listing`). */
export const ListingCreated = z.object(
  fields({
    id: () => z.string(),
    title: () => z.string(),
    description: () => z.string(),
    status: () => ListingStatus,
    price: () => Money,
    card: () => z.object({ id: z.string(), cert_number: z.string(), grader: Grader }),
    url: () => z.string(),
  }),
);
export type ListingCreated = z.infer<typeof ListingCreated>;

/** PUT /listings/{id}.json response (`listing`). */
export const ListingUpdated = z.object(
  fields({
    id: () => z.string(),
    title: () => z.string(),
    status: () => ListingStatus,
    price: () => Money,
    minimum_offer: () => z.nullable(Money),
    accepts_offers: () => z.boolean(),
  }),
);
export type ListingUpdated = z.infer<typeof ListingUpdated>;

/** DELETE /listings/{id}.json response (`listing`). */
export const ListingDeleted = z.object(
  fields({
    id: () => z.string(),
    title: () => z.string(),
    status: () => ListingStatus,
    unavailable_reason: () => z.nullable(z.string()),
    can_reactivate: () => z.boolean(),
    price: () => Money,
  }),
);
export type ListingDeleted = z.infer<typeof ListingDeleted>;

/** The product shape's variant: one per listing, even for a lot. */
export const ProductVariant = z.object(
  fields({
    id: () => z.optional(z.string()),
    product_id: () => z.optional(z.string()),
    title: () => z.optional(z.string()),
    price: () => z.optional(Money),
    sku: () => z.optional(z.string()),
    inventory_item_id: () => z.optional(z.string()),
    inventory_quantity: () => z.optional(z.int()),
    svc_minimum_offer: () => z.optional(z.nullable(Money)),
  }),
);

/** The card of the product shape, as far as a server sends it. */
export const ProductCard = z.extend(z.partial(ListingCard), { id: z.string() });
export type ProductCard = z.infer<typeof ProductCard>;

/** The product shape (`/products...` and webhook payloads): only id, title and status required. */
export const Product = z.object(
  fields({
    id: () => z.string(),
    title: () => z.string(),
    status: () => ListingStatus,
    svc_unavailable_reason: () => z.optional(z.nullable(z.string())),
    body_html: () => z.optional(z.nullable(z.string())),
    handle: () => z.optional(z.string()),
    vendor: () => z.optional(z.string()),
    product_type: () => z.optional(z.string()),
    created_at: () => z.optional(Timestamp),
    updated_at: () => z.optional(Timestamp),
    published_at: () => z.optional(z.nullable(Timestamp)),
    variants: () => z.optional(z.array(ProductVariant)),
    images: () => z.optional(z.array(ListingImage)),
    svc_card: () => z.optional(ProductCard),
    svc_can_reactivate: () => z.optional(z.boolean()),
    svc_is_lot: () => z.optional(z.boolean()),
    svc_card_count: () => z.optional(z.int()),
    svc_inventory_item_ids: () => z.optional(z.array(z.string())),
    svc_accepts_offers: () => z.optional(z.boolean()),
    svc_minimum_offer: () => z.optional(z.nullable(Money)),
    svc_accepts_trades: () => z.optional(z.boolean()),
    svc_auto_relist: () => z.optional(z.boolean()),
    svc_promoted: () => z.optional(z.boolean()),
    svc_duration_hours: () => z.optional(z.int()),
    svc_window_ends_at: () => z.optional(z.nullable(Timestamp)),
    svc_scheduled_go_live_at: () => z.optional(z.nullable(Timestamp)),
    svc_listed_at: () => z.optional(z.nullable(Timestamp)),
    svc_url: () => z.optional(WebAddress),
  }),
);
export type Product = z.infer<typeof Product>;

// ---------------------------------------------------------------------------------------------
// Orders

export const LineItem = z.object(
  fields({
    id: () => z.string(),
    product_id: () => z.string(),
    title: () => z.string(),
    sku: () => z.string(),
    quantity: () => z.int(),
    price: () => Money,
    inventory_item_id: () => z.string(),
    svc_inventory_item_ids: () => z.array(z.string()),
    svc_is_lot: () => z.boolean(),
    /** Single view only. */
    fulfillment_status: () => z.optional(z.string()),
  }),
);
export type LineItem = z.infer<typeof LineItem>;

/** A value with none until something happens: null or absent both read as not yet. */
const UntilSet = <T extends z.ZodMiniType>(type: T) => z.optional(z.nullable(type));

export const SellerShipment = z.object(
  fields({
    status: () => z.string(),
    tracking_number: () => z.nullable(z.string()),
    ship_by: () => UntilSet(Timestamp),
    cancel_after: () => UntilSet(Timestamp),
    label_url: () => z.nullable(WebAddress),
    carrier_code: () => UntilSet(z.string()),
    shipped_at: () => UntilSet(Timestamp),
    delivered_to_hub_at: () => UntilSet(Timestamp),
  }),
);
export const Authentication = z.object(
  fields({
    status: () => z.string(),
    completed_at: () => z.nullable(Timestamp),
  }),
);
export const BuyerDelivery = z.object(
  fields({
    status: () => z.string(),
    shipped_at: () => UntilSet(Timestamp),
    delivered_at: () => UntilSet(Timestamp),
  }),
);
export const Payout = z.object(
  fields({
    status: () => z.string(),
    amount: () => z.nullable(Money),
    platform_fee: () => Money,
    paid_at: () => z.nullable(Timestamp),
  }),
);

export const Order = z.object(
  fields({
    id: () => z.string(),
    name: () => z.string(),
    order_number: () => z.int(),
    created_at: () => Timestamp,
    updated_at: () => z.optional(Timestamp),
    closed_at: () => z.nullable(Timestamp),
    cancelled_at: () => z.nullable(Timestamp),
    /** Served beyond the spec's table: who or what cancelled (`buyer`, `seller`, ...). */
    cancel_reason: () => z.optional(z.nullable(z.string())),
    financial_status: () => FinancialStatus,
    fulfillment_status: () => z.nullable(z.string()),
    currency: () => z.string(),
    subtotal_price: () => Money,
    /** The spec lists it on the list view only: absent means not shown, never zero. */
    total_tax: () => z.optional(Money),
    total_price: () => Money,
    total_refunded: () => Money,
    test: () => z.boolean(),
    line_items: () => z.array(LineItem),
    svc_order_code: () => z.string(),
    svc_sold_at: () => Timestamp,
    svc_sale_channel: () => z.string(),
    svc_delivery_method: () => z.string(),
    svc_seller_shipment: () => SellerShipment,
    svc_authentication: () => Authentication,
    /** Single view only. */
    svc_buyer_delivery: () => z.optional(BuyerDelivery),
    svc_payout: () => Payout,
  }),
);
/** An order as the tolerant reader gives it: only the id is sure. */
export type Order = Readable<z.infer<typeof Order>>;

export const ORDER_STATUS_FILTERS = ['open', 'closed', 'cancelled', 'any'] as const;
export type OrderStatusFilter = (typeof ORDER_STATUS_FILTERS)[number];

// ---------------------------------------------------------------------------------------------
// Inventory and locations

export const InventoryItem = z.object(
  fields({
    id: () => z.string(),
    sku: () => z.string(),
    cost: () => Money,
    tracked: () => z.boolean(),
    requires_shipping: () => z.boolean(),
    created_at: () => Timestamp,
    updated_at: () => z.optional(Timestamp),
    svc_cert_number: () => z.string(),
    svc_grader: () => z.string(),
    svc_grade: () => z.string(),
    svc_player: () => z.string(),
    svc_year: () => z.string(),
    svc_card_set: () => z.string(),
    svc_title: () => z.optional(z.string()),
    svc_category: () => z.optional(z.string()),
  }),
);
/** An inventory item as the tolerant reader gives it: only the id is sure. */
export type InventoryItem = Readable<z.infer<typeof InventoryItem>>;

export const InventoryLevel = z.object(
  fields({
    inventory_item_id: () => z.string(),
    location_id: () => z.string(),
    available: () => z.int().check(z.gte(0), z.lte(1)),
    updated_at: () => Timestamp,
    /** Explains a zero: null, empty or left out while the card is available. */
    svc_unavailable_reason: () => z.optional(z.nullable(z.string())),
    svc_reason_detail: () => z.optional(z.nullable(z.string())),
    svc_can_reactivate: () => z.boolean(),
  }),
);
/** An inventory level as the tolerant reader gives it: only its key, the item's id, is sure. */
export type InventoryLevel = Readable<z.infer<typeof InventoryLevel>, 'inventory_item_id'>;

export const Location = z.object(
  fields({
    id: () => z.string(),
    name: () => z.string(),
    country_code: () => z.optional(z.string()),
    active: () => z.boolean(),
    svc_location_type: () => z.enum(['seller', 'vault']),
    svc_seller_controlled: () => z.boolean(),
    svc_writable: () => z.boolean(),
  }),
);
/** A location as the tolerant reader gives it: only the id is sure. */
export type Location = Readable<z.infer<typeof Location>>;

// ---------------------------------------------------------------------------------------------
// Ping

export const Ping = z.object(
  fields({
    ok: () => z.boolean(),
    api_version: () => z.string(),
    mode: () => z.enum(['live', 'test']),
    seller_id: () => z.string(),
    key_id: () => z.string(),
    scopes: () => z.array(z.string()),
    request_id: () => z.string(),
    server_time: () => Timestamp,
  }),
);
/** A ping result as the tolerant reader gives it: it has no id, so any field may be absent. */
export type Ping = Readable<z.infer<typeof Ping>, never>;
