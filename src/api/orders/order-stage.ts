import type { Order } from '../../client';
import { awaitsShipment } from './shipment';

/** Where a sale stands, by the furthest lifecycle field; unknown statuses go under "other". */
export const ORDER_STAGES = [
  { stage: 'to_ship', label: 'To ship' },
  { stage: 'to_hub', label: 'On its way to the hub' },
  { stage: 'at_hub', label: 'At the hub' },
  { stage: 'authenticated', label: 'Authenticated' },
  { stage: 'delivered', label: 'Delivered' },
  { stage: 'paid_out', label: 'Paid out' },
  { stage: 'cancelled', label: 'Cancelled' },
  { stage: 'other', label: 'Other' },
] as const;
export type OrderStage = (typeof ORDER_STAGES)[number]['stage'];

export const stageLabel = (stage: OrderStage) =>
  ORDER_STAGES.find((one) => one.stage === stage)?.label ?? 'Other';

export const isOrderStage = (value: string | null): value is OrderStage =>
  ORDER_STAGES.some((one) => one.stage === value);

type StageFields = Pick<
  Order,
  | 'cancelled_at'
  | 'fulfillment_status'
  | 'svc_seller_shipment'
  | 'svc_authentication'
  | 'svc_payout'
> &
  Partial<Pick<Order, 'svc_buyer_delivery' | 'unreadable'>> & {
    /** The API's `open` filter's answer, kept with the order (kept-orders): false once delivered. */
    slabdesk_open?: boolean | undefined;
  };

/** The seller's leg is read by its timestamps, so an unseen code (`label_created`) still places. */
const KNOWN = {
  payout: ['pending', 'paid', 'cancelled'],
  auth: ['pending', 'passed', 'cancelled'],
  buyer: ['not_shipped', 'in_transit', 'delivered'],
};
const known = (list: string[], value: string | null | undefined) =>
  value === undefined || value === null || list.includes(value);

export function orderStage(order: StageFields): OrderStage {
  if (order.cancelled_at) return 'cancelled';
  const shipment = order.svc_seller_shipment;
  const auth = order.svc_authentication;
  const buyer = order.svc_buyer_delivery;
  const payout = order.svc_payout;
  if (
    !known(KNOWN.payout, payout?.status) ||
    !known(KNOWN.auth, auth?.status) ||
    !known(KNOWN.buyer, buyer?.status)
  )
    return 'other';
  if (payout?.status === 'paid') return 'paid_out';
  if (buyer?.status === 'delivered' || buyer?.delivered_at) return 'delivered';
  // The spec's `closed` is "paid out or delivered": not open, not paid, so delivered.
  if (order.slabdesk_open === false) return 'delivered';
  if (auth?.status === 'passed' || order.fulfillment_status === 'fulfilled') return 'authenticated';
  if (shipment?.status === 'delivered' || shipment?.delivered_to_hub_at) return 'at_hub';
  if (shipment?.shipped_at) return 'to_hub';
  if (awaitsShipment(order)) return 'to_ship';
  return 'other';
}
