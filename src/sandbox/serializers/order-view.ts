import { ORDER_STAGES } from '../domain/marketplace';
import { formatCents } from '../../shared/money';
import { isoTime } from '../platform/time';
import type { OrderWithLineRow } from '../store/rows';

const reached = (row: OrderWithLineRow, stage: (typeof ORDER_STAGES)[number]) =>
  row.stage >= ORDER_STAGES.indexOf(stage) + 1;

/** GET /orders.json and /orders/{id}.json; the single view adds buyer delivery and line fulfillment. */
export function orderView(row: OrderWithLineRow, single: boolean) {
  const total = row.subtotal_cents + row.tax_cents;
  const fulfilled = reached(row, 'shipped_to_buyer');
  /** The stage's word once reached; before it, `cancelled` on a cancelled order, else `before`. */
  const since = (stage: (typeof ORDER_STAGES)[number], word: string, before: string) =>
    reached(row, stage) ? word : row.cancelled_at !== null ? 'cancelled' : before;
  const shipmentStatus = reached(row, 'delivered_to_hub')
    ? 'delivered'
    : since('shipped_to_hub', 'in_transit', 'pending_shipment');
  const lineItem = {
    id: row.line_item_id,
    product_id: row.listing_id,
    title: row.line_title,
    sku: row.line_sku,
    quantity: 1,
    price: formatCents(row.line_price_cents),
    inventory_item_id: row.line_inventory_item_id,
    svc_inventory_item_ids: row.line_item_ids.split(','),
    svc_is_lot: row.line_is_lot === 1,
    ...(single ? { fulfillment_status: fulfilled ? 'fulfilled' : 'unfulfilled' } : {}),
  };
  return {
    id: row.id,
    name: row.name,
    order_number: row.order_number,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
    closed_at: isoTime(row.closed_at),
    cancelled_at: isoTime(row.cancelled_at),
    cancel_reason: row.cancel_reason,
    financial_status: row.financial_status,
    fulfillment_status: fulfilled ? 'fulfilled' : null,
    currency: 'USD',
    subtotal_price: formatCents(row.subtotal_cents),
    total_tax: formatCents(row.tax_cents),
    total_price: formatCents(total),
    total_refunded: formatCents(row.refunded_cents),
    test: row.test === 1,
    line_items: [lineItem],
    svc_order_code: row.name,
    svc_sold_at: isoTime(row.sold_at),
    svc_sale_channel: row.sale_channel,
    svc_delivery_method: row.delivery_method,
    svc_seller_shipment: {
      status: shipmentStatus,
      tracking_number: row.tracking_number,
      ship_by: isoTime(row.ship_by),
      cancel_after: isoTime(row.cancel_after),
      label_url: row.label_url,
      carrier_code: row.carrier_code,
      shipped_at: isoTime(row.shipped_at),
      delivered_to_hub_at: isoTime(row.delivered_to_hub_at),
    },
    svc_authentication: {
      status: since('authenticated', 'passed', 'pending'),
      completed_at: isoTime(row.authenticated_at),
    },
    ...(single
      ? {
          svc_buyer_delivery: {
            status: reached(row, 'delivered')
              ? 'delivered'
              : reached(row, 'shipped_to_buyer')
                ? 'in_transit'
                : 'not_shipped',
            shipped_at: isoTime(row.buyer_shipped_at),
            delivered_at: isoTime(row.buyer_delivered_at),
          },
        }
      : {}),
    svc_payout: {
      status: since('payout_released', 'paid', 'pending'),
      amount: row.payout_cents === null ? null : formatCents(row.payout_cents),
      platform_fee: formatCents(row.fee_cents),
      paid_at: isoTime(row.paid_at),
    },
  };
}
