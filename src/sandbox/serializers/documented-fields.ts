import { componentSchemas, type JsonSchema } from '../openapi/schemas';
import type { FieldSet } from './shape';

const SCHEMAS = componentSchemas();

/** A schema's fields as the spec documents them: its properties, into objects and array items. */
function fieldsOfSchema(schema: JsonSchema, omit: readonly string[], path = ''): true | FieldSet {
  const named = (s: JsonSchema) =>
    typeof s.$ref === 'string' ? SCHEMAS[s.$ref.split('/').pop()!]! : s;
  const target = named(schema);
  const object =
    target.type === 'array' && target.items ? named(target.items as JsonSchema) : target;
  const properties = object.properties as Record<string, JsonSchema> | undefined;
  if (!properties) return true;
  return Object.fromEntries(
    Object.entries(properties)
      .filter(([key]) => !omit.includes(`${path}${key}`))
      .map(([key, value]) => [key, fieldsOfSchema(value, omit, `${path}${key}.`)]),
  );
}

/** The fields of a read view (`SANDBOX_SHAPES=documented`): its schema less what the view leaves out. */
const documented = (name: string, ...omit: string[]) =>
  fieldsOfSchema(SCHEMAS[name]!, omit) as FieldSet;

/** Timestamps with no value yet: documented shapes leave them out, the full ones send null. */
export const ORDER_ABSENT_UNTIL_SET = {
  svc_seller_shipment: [
    'ship_by',
    'cancel_after',
    'carrier_code',
    'shipped_at',
    'delivered_to_hub_at',
  ],
  svc_buyer_delivery: ['shipped_at', 'delivered_at'],
};

/** A level's reason "explains a zero": left out for an available card in documented shapes. */
export function levelWithoutReasonWhileAvailable(level: Record<string, unknown>) {
  if (level.available === 1) {
    delete level.svc_unavailable_reason;
    delete level.svc_reason_detail;
  }
  return level;
}

/** Leaves out each listed field of a nested object whose value is null. */
export function withoutNulls(
  record: Record<string, unknown>,
  fields: Readonly<Record<string, readonly string[]>>,
): Record<string, unknown> {
  for (const [holderKey, keys] of Object.entries(fields)) {
    const holder = record[holderKey] as Record<string, unknown> | null | undefined;
    for (const key of keys) if (holder?.[key] === null) delete holder[key];
  }
  return record;
}

export const DOCUMENTED_FIELDS = {
  listingList: documented('ListingListItem'),
  listingSingle: documented('ListingDetail'),
  /** The product form: the spec guarantees only id, title, status and `svc_unavailable_reason`. */
  product: documented('Product', 'variants'),
  orderList: documented('Order', 'svc_buyer_delivery', 'line_items.fulfillment_status'),
  /** The single view leaves out `total_tax` ("appears in the list view"), as the spec allows. */
  orderSingle: documented('Order', 'total_tax'),
  inventoryItem: documented('InventoryItem'),
  inventoryLevel: documented('InventoryLevel'),
  /** `country_code` is the hub's only: projection keeps it only where the location has it. */
  location: documented('Location'),
  ping: documented('Ping'),
} as const satisfies Record<string, FieldSet>;

/** The write answers' `listing`: exactly the spec's fields, cut from the single view. */
export const WRITE_FIELDS = {
  create: documented('ListingCreated'),
  update: documented('ListingUpdated'),
  delete: documented('ListingDeleted'),
} as const satisfies Record<string, FieldSet>;
