import { GRADERS } from '../domain/inventory';
import { z } from 'zod';
import { createFields, updateFields } from '../domain/listing-input';

/** The spec's views; responses stay open to extra members ("not shown" is not absent). */
export type JsonSchema = Record<string, unknown>;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const str: JsonSchema = { type: 'string' };
const bool: JsonSchema = { type: 'boolean' };
const int: JsonSchema = { type: 'integer' };
const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
/** A decimal dollar string with two decimals ("125.00"). */
const money: JsonSchema = { type: 'string', pattern: '^-?\\d+\\.\\d{2}$' };
/** An ISO 8601 UTC timestamp with milliseconds. */
const timestamp: JsonSchema = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$',
};

/** An object with these required members (open to more). */
export function object(
  properties: Record<string, JsonSchema>,
  optional: string[] = [],
): JsonSchema {
  return {
    type: 'object',
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    properties,
    additionalProperties: true,
  };
}

const grader: JsonSchema = { type: 'string', enum: [...GRADERS] };
const listingStatus: JsonSchema = { type: 'string', enum: ['active', 'draft', 'archived'] };

/** Null while unknown (a card made from fallback details that named no year). */
const cardYear = nullable(int);

/** The members every listing view but the created and deleted ones opens with. */
const LISTING_HEAD = { id: str, title: str, status: listingStatus, price: money };

/** The card as the spec's Card table has it (`url` on the single view only). */
const CARD_MEMBERS: Record<string, JsonSchema> = {
  id: str,
  title: str,
  cert_number: str,
  grader,
  grade: str,
  year: cardYear,
  set: str,
  category: str,
};
const cardInList = object(CARD_MEMBERS, ['year', 'set', 'category']);

/** A write's input as its zod schema reads it, open to the alias forms. */
function writeInput(fields: z.ZodObject, description: string): JsonSchema {
  const { $schema: _draft, ...schema } = z.toJSONSchema(fields.loose(), { io: 'input' });
  return { ...schema, description };
}

/** The schemas, plus a `...Fields` form per record for `fields=` reads (none required). */
export function componentSchemas(): Record<string, JsonSchema> {
  const schemas = baseSchemas();
  for (const name of FIELDS_FORMS) {
    const { required: _required, ...rest } = schemas[name]!;
    schemas[`${name}Fields`] = {
      ...rest,
      description: `${name} as a fields= read returns it: only the keys asked for`,
    };
  }
  return schemas;
}

/** The records that `fields=` can trim (collections and single reads). */
export const FIELDS_FORMS = [
  'ListingListItem',
  'ListingDetail',
  'Product',
  'Order',
  'InventoryItem',
  'InventoryLevel',
];

/** The order's fields, for both of its views. */
const ORDER_PROPERTIES: Record<string, JsonSchema> = {
  id: str,
  name: { type: 'string', pattern: '^[A-Z]{2}-[A-Z0-9]{6}$' },
  order_number: int,
  created_at: timestamp,
  closed_at: nullable(timestamp),
  cancelled_at: nullable(timestamp),
  financial_status: {
    type: 'string',
    enum: ['authorized', 'paid', 'partially_refunded', 'refunded', 'voided'],
  },
  fulfillment_status: nullable({ type: 'string', enum: ['fulfilled'] }),
  currency: { type: 'string', enum: ['USD'] },
  subtotal_price: money,
  total_tax: money,
  total_price: money,
  total_refunded: money,
  test: bool,
  line_items: { type: 'array', minItems: 1, maxItems: 1, items: ref('LineItem') },
  svc_order_code: str,
  svc_sold_at: timestamp,
  svc_sale_channel: str,
  svc_delivery_method: str,
  // The spec marks only these two nullable: the timestamps of what has not happened yet
  // are null, or left out (the narrower reading, SANDBOX_SHAPES=documented).
  svc_seller_shipment: object(
    {
      status: str,
      tracking_number: nullable(str),
      ship_by: timestamp,
      cancel_after: timestamp,
      label_url: nullable(str),
      carrier_code: str,
      shipped_at: nullable(timestamp),
      delivered_to_hub_at: nullable(timestamp),
    },
    ['shipped_at', 'delivered_to_hub_at'],
  ),
  svc_authentication: object({ status: str, completed_at: nullable(timestamp) }),
  svc_buyer_delivery: object(
    {
      status: str,
      shipped_at: nullable(timestamp),
      delivered_at: nullable(timestamp),
    },
    ['shipped_at', 'delivered_at'],
  ),
  svc_payout: object({
    status: str,
    amount: nullable(money),
    platform_fee: money,
    paid_at: nullable(timestamp),
  }),
};

function baseSchemas(): Record<string, JsonSchema> {
  return {
    DegradedRecord: object(
      {
        id: str,
        inventory_item_id: str,
        svc_serialization_error: object({ code: str, message: str }),
      },
      ['id', 'inventory_item_id'],
    ),
    ListingListItem: object({
      ...LISTING_HEAD,
      card: cardInList,
      is_lot: bool,
      card_count: int,
      accepts_offers: bool,
      created_at: timestamp,
      listed_at: nullable(timestamp),
    }),
    ListingDetail: object({
      ...LISTING_HEAD,
      card: object({
        id: str,
        title: str,
        cert_number: str,
        grader,
        grade: str,
        url: { type: 'string', format: 'uri' },
      }),
      unavailable_reason: nullable(str),
      can_reactivate: bool,
      url: { type: 'string', format: 'uri' },
    }),
    ListingCreated: object({
      id: str,
      title: str,
      description: str,
      status: listingStatus,
      price: money,
      card: object({ id: str, cert_number: str, grader }),
      url: { type: 'string', format: 'uri' },
    }),
    ListingUpdated: object({
      ...LISTING_HEAD,
      minimum_offer: nullable(money),
      accepts_offers: bool,
    }),
    ListingDeleted: object({
      id: str,
      title: str,
      status: listingStatus,
      unavailable_reason: nullable(str),
      can_reactivate: bool,
      price: money,
    }),
    // "The listing resource in product form", which names the sold reason
    // `svc_unavailable_reason`: all the spec guarantees of it (SANDBOX_SHAPES=documented sends no
    // more), so only the id, title and status are required.
    Product: object(
      {
        id: str,
        title: str,
        status: listingStatus,
        svc_unavailable_reason: nullable(str),
        variants: { type: 'array' },
      },
      ['svc_unavailable_reason', 'variants'],
    ),
    Card: object({ ...CARD_MEMBERS, url: str }, ['year', 'set', 'category', 'url']),
    // One order, two views: the list view carries `total_tax` (the spec: it "appears in the list
    // view") and the single view `svc_buyer_delivery`; a server may leave either out of the other.
    Order: object(ORDER_PROPERTIES, ['svc_buyer_delivery', 'total_tax']),
    LineItem: object(
      {
        id: str,
        product_id: str,
        title: str,
        sku: str,
        quantity: int,
        price: money,
        inventory_item_id: str,
        svc_inventory_item_ids: { type: 'array', items: str },
        svc_is_lot: bool,
        fulfillment_status: str,
      },
      ['fulfillment_status'],
    ),
    InventoryItem: object({
      id: str,
      sku: str,
      cost: money,
      tracked: { type: 'boolean', const: true },
      requires_shipping: { type: 'boolean', const: true },
      created_at: timestamp,
      svc_cert_number: str,
      svc_grader: grader,
      svc_grade: str,
      svc_player: str,
      svc_year: str,
      svc_card_set: str,
    }),
    InventoryLevel: object(
      {
        inventory_item_id: str,
        location_id: str,
        available: { type: 'integer', enum: [0, 1] },
        updated_at: timestamp,
        svc_unavailable_reason: nullable(str),
        svc_reason_detail: nullable(str),
        svc_can_reactivate: bool,
      },
      ['svc_unavailable_reason', 'svc_reason_detail'],
    ),
    Location: object(
      {
        id: { type: 'string', pattern: '^(loc_vault|loc_seller_.+)$' },
        name: str,
        country_code: str,
        active: bool,
        svc_location_type: { type: 'string', enum: ['seller', 'vault'] },
        svc_seller_controlled: bool,
        svc_writable: { type: 'boolean', const: false },
      },
      ['country_code'],
    ),
    Ping: object({
      ok: bool,
      api_version: str,
      mode: { type: 'string', enum: ['live', 'test'] },
      seller_id: str,
      key_id: str,
      scopes: { type: 'array', items: str },
      request_id: str,
      server_time: timestamp,
    }),
    ErrorEnvelope: object({
      errors: {
        anyOf: [str, { type: 'object', additionalProperties: { type: 'array', items: str } }],
      },
      svc_error: object(
        {
          code: str,
          request_id: nullable(str),
          changed_params: { type: 'array', items: str },
          supported_versions: {
            type: 'array',
            items: object({ version: str, status: str, released: str, sunset: str }),
          },
          max_bytes: int,
          reason: str,
        },
        ['changed_params', 'supported_versions', 'max_bytes', 'reason'],
      ),
    }),
    ListingCreateInput: writeInput(
      createFields,
      'One of sku or inventory_item_id. The alias forms (svc_ names, body_html, variants[0]) are accepted too.',
    ),
    ListingUpdateInput: writeInput(
      updateFields,
      'Only the fields to change. The alias forms are accepted too.',
    ),
  };
}
