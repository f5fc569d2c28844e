import { fieldsOf, type FieldSet } from './shape';

/** The fields the spec's tables document per read view, in order (`SANDBOX_SHAPES=documented`). */

const listingCardList = fieldsOf('id title cert_number grader grade year set category');

const listingList: FieldSet = {
  ...fieldsOf('id title status price'),
  card: listingCardList,
  ...fieldsOf('is_lot card_count accepts_offers created_at listed_at'),
};

const listingSingle: FieldSet = {
  ...fieldsOf('id title status price'),
  card: fieldsOf('id title cert_number grader grade url'),
  ...fieldsOf('unavailable_reason can_reactivate url'),
};

/** The product form: the spec guarantees only id, title, status and `svc_unavailable_reason`. */
const product = fieldsOf('id title status svc_unavailable_reason');

const lineItemList = fieldsOf(
  'id product_id title sku quantity price inventory_item_id svc_inventory_item_ids svc_is_lot',
);

const orderHead = fieldsOf(`
  id name order_number created_at closed_at cancelled_at financial_status
  fulfillment_status currency subtotal_price total_tax total_price total_refunded test
`);

const orderTail = {
  ...fieldsOf('svc_order_code svc_sold_at svc_sale_channel svc_delivery_method'),
  svc_seller_shipment: fieldsOf(`status tracking_number ship_by cancel_after label_url
    carrier_code shipped_at delivered_to_hub_at`),
  svc_authentication: fieldsOf('status completed_at'),
};

const payout = fieldsOf('status amount platform_fee paid_at');

const orderList: FieldSet = {
  ...orderHead,
  line_items: lineItemList,
  ...orderTail,
  svc_payout: payout,
};

/** The single view leaves out `total_tax` ("appears in the list view"), as the spec allows. */
const { total_tax: _listViewOnly, ...orderSingleHead } = orderHead;

const orderSingle: FieldSet = {
  ...orderSingleHead,
  line_items: { ...lineItemList, fulfillment_status: true },
  ...orderTail,
  svc_buyer_delivery: fieldsOf('status shipped_at delivered_at'),
  svc_payout: payout,
};

const inventoryItem = fieldsOf(`
  id sku cost tracked requires_shipping created_at svc_cert_number svc_grader svc_grade
  svc_player svc_year svc_card_set
`);

const inventoryLevel = fieldsOf(`
  inventory_item_id location_id available updated_at svc_unavailable_reason
  svc_reason_detail svc_can_reactivate
`);

/** `country_code` is the hub's only: projection keeps it only where the location has it. */
const location = fieldsOf(
  'id name country_code active svc_location_type svc_seller_controlled svc_writable',
);

const ping = fieldsOf('ok api_version mode seller_id key_id scopes request_id server_time');

/** Timestamps with no value yet: documented shapes leave them out, the full ones send null. */
export const ABSENT_UNTIL_SET = {
  order: {
    svc_seller_shipment: [
      'ship_by',
      'cancel_after',
      'carrier_code',
      'shipped_at',
      'delivered_to_hub_at',
    ],
    svc_buyer_delivery: ['shipped_at', 'delivered_at'],
  },
} as const satisfies Record<string, Record<string, readonly string[]>>;

/** A level's reason "explains a zero": left out for an available card in documented shapes. */
export function levelWithoutReasonWhileAvailable(level: Record<string, unknown>) {
  if (level.available === 1) {
    delete level.svc_unavailable_reason;
    delete level.svc_reason_detail;
  }
  return level;
}

/** Leaves out each listed field whose value is null (`''` names the record itself). */
export function withoutNulls(
  record: Record<string, unknown>,
  fields: Readonly<Record<string, readonly string[]>>,
): Record<string, unknown> {
  for (const [holderKey, keys] of Object.entries(fields)) {
    const holder = holderKey === '' ? record : record[holderKey];
    if (typeof holder !== 'object' || holder === null) continue;
    const object = holder as Record<string, unknown>;
    for (const key of keys) if (object[key] === null) delete object[key];
  }
  return record;
}

export const DOCUMENTED_FIELDS = {
  listingList,
  listingSingle,
  product,
  orderList,
  orderSingle,
  inventoryItem,
  inventoryLevel,
  location,
  ping,
} as const satisfies Record<string, FieldSet>;
