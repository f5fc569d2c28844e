import type { Order } from '../../client';
import { compareCodes } from '../compare-codes';

/** The fields the seller's leg to the hub is read from. */
export type ShipmentFields = Pick<Order, 'cancelled_at' | 'svc_seller_shipment'> &
  Partial<Pick<Order, 'unreadable'>>;

/** A timestamp the order shows as set (null or absent: not yet). */
const isSet = (value: string | null | undefined) => typeof value === 'string' && value !== '';

const unread = (order: ShipmentFields, field: string) =>
  order.unreadable?.includes(`svc_seller_shipment.${field}`) === true;

/** Whether the card has left the seller, by its timestamps; undefined when one is unread. */
export function shippedToHub(order: ShipmentFields): boolean | undefined {
  const shipment = order.svc_seller_shipment;
  if (!shipment || unread(order, 'shipped_at') || unread(order, 'delivered_to_hub_at'))
    return undefined;
  return isSet(shipment.shipped_at) || isSet(shipment.delivered_to_hub_at);
}

/** Awaiting shipment to the hub: not cancelled, no `shipped_at`; by timestamps, never status. */
export const awaitsShipment = (order: ShipmentFields): boolean =>
  order.cancelled_at === null && shippedToHub(order) === false;

/** Orders to ship to the hub, the soonest `ship_by` first (no deadline last). */
export const shipQueue = <T extends ShipmentFields>(orders: readonly T[]): T[] =>
  orders
    .filter(awaitsShipment)
    .sort((a, b) =>
      compareCodes(
        a.svc_seller_shipment?.ship_by ?? '\uffff',
        b.svc_seller_shipment?.ship_by ?? '\uffff',
      ),
    );

/** A code in words, as given: `label_created` → "Label created". */
const asGiven = (code: string) => {
  const words = code.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The seller's leg to the hub in words; an unseen status is shown as given, placed by time. */
export function shipmentWords(order: ShipmentFields): string | undefined {
  const shipment = order.svc_seller_shipment;
  const status = shipment?.status;
  if (status === undefined) return undefined;
  if (status === 'delivered' || isSet(shipment?.delivered_to_hub_at)) return 'Delivered to the hub';
  const shipped = shippedToHub(order);
  if (status === 'pending_shipment' && shipped !== true) {
    if (order.cancelled_at === undefined) return 'Not shipped yet';
    return order.cancelled_at ? 'Not shipped' : 'To ship';
  }
  if (shipped === true) {
    return status === 'shipped' || status === 'in_transit'
      ? 'On its way to the hub'
      : `${asGiven(status)} (on its way to the hub)`;
  }
  if (shipped === false) {
    if (order.cancelled_at === null) return `${asGiven(status)} (to ship)`;
    if (order.cancelled_at) return `${asGiven(status)} (not shipped)`;
    return `${asGiven(status)} (not shipped yet)`;
  }
  return `${asGiven(status)} (to the hub)`;
}
