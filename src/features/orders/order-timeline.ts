import type { Order } from '../../client';
import { unreadableAt } from '../../components/record-field';

import { formatMoney } from '../../lib/format';
export interface TimelineStep {
  id: string;
  label: string;
  /** When it happened: null when the order says not yet, undefined when it does not show it. */
  at: string | null | undefined;
  /** Undefined when the fields that tell were not shown (or not readable): never guessed. */
  done: boolean | undefined;
  /** When `done` is undefined: whether what tells was sent but could not be read. */
  unreadable: boolean;
  detail?: string | undefined;
}

/** A timestamp field said "set" (true), "not yet" (false, null) or nothing (undefined). */
const isSet = (value: string | null | undefined) =>
  value === undefined ? undefined : value !== null;
const is = <T>(value: T | undefined, wanted: T) =>
  value === undefined ? undefined : value === wanted;

/** A step from its signs: done if any says so, not yet if one says not, else unknown. */
function anyOf(...signs: (boolean | undefined)[]): boolean | undefined {
  if (signs.includes(true)) return true;
  return signs.includes(false) ? false : undefined;
}

/** A status that says the step is done (`yes`), not yet (`no`), or neither (an unknown value). */
const statusSays = (status: string | null | undefined, yes: RegExp, no: RegExp) => {
  if (status === undefined || status === null) return undefined;
  if (yes.test(status)) return true;
  return no.test(status) ? false : undefined;
};

/** Shipped per `shipped_at` (a label is no shipment); a status or tracking only without it. */
function shippedSays(shipment: Partial<NonNullable<Order['svc_seller_shipment']>>) {
  const shipped = isSet(shipment.shipped_at);
  if (shipped === true || isSet(shipment.delivered_to_hub_at) === true) return true;
  if (shipment.status === 'delivered') return true;
  if (shipped === false) return false;
  return anyOf(
    isSet(shipment.tracking_number),
    statusSays(shipment.status, /delivered|transit|shipped/, /^pending/),
  );
}

/** The order's lifecycle as dated steps; a step no view shows is marked so. */
export function orderTimeline(order: Order): TimelineStep[] {
  const shipment = order.svc_seller_shipment ?? {};
  const auth = order.svc_authentication ?? {};
  const buyer = order.svc_buyer_delivery ?? {};
  const payout = order.svc_payout ?? {};
  const marked = (...paths: string[]) => paths.some((path) => unreadableAt(order, path));
  const step = (
    id: string,
    label: string,
    at: string | null | undefined,
    done: boolean | undefined,
    paths: string[],
    detail?: string,
  ): TimelineStep => ({ id, label, at, done, unreadable: marked(...paths), detail });
  const channel = order.svc_sale_channel;
  return [
    step(
      'sold',
      'Sold',
      order.svc_sold_at,
      true,
      [],
      channel === undefined ? undefined : `via ${channel.replace(/_/g, ' ')}`,
    ),
    step(
      'shipped_to_hub',
      'Shipped to the hub',
      shipment.shipped_at,
      shippedSays(shipment),
      ['svc_seller_shipment.shipped_at', 'svc_seller_shipment.tracking_number'],
      shipment.tracking_number
        ? `Tracking ${shipment.carrier_code ? `${shipment.carrier_code} ` : ''}${shipment.tracking_number}`
        : undefined,
    ),
    step(
      'delivered_to_hub',
      'Delivered to the hub',
      shipment.delivered_to_hub_at,
      anyOf(isSet(shipment.delivered_to_hub_at), is(shipment.status, 'delivered')),
      ['svc_seller_shipment.delivered_to_hub_at', 'svc_seller_shipment.status'],
    ),
    step(
      'authenticated',
      'Authenticated',
      auth.completed_at,
      anyOf(isSet(auth.completed_at), statusSays(auth.status, /^passed$/, /^pending$/)),
      ['svc_authentication.status', 'svc_authentication.completed_at'],
      auth.status === undefined ? undefined : `Authentication ${auth.status}`,
    ),
    step(
      'shipped_to_buyer',
      'Shipped to the buyer',
      buyer.shipped_at,
      // `fulfillment_status` is null until the card ships to the buyer, then `fulfilled`.
      anyOf(isSet(buyer.shipped_at), isSet(order.fulfillment_status)),
      ['svc_buyer_delivery.shipped_at', 'fulfillment_status'],
    ),
    step(
      'delivered',
      'Delivered to the buyer',
      buyer.delivered_at,
      anyOf(
        isSet(buyer.delivered_at),
        is(buyer.status, 'delivered'),
        // Not shipped to the buyer yet: not delivered to them either.
        isSet(order.fulfillment_status) === false ? false : undefined,
      ),
      ['svc_buyer_delivery.delivered_at', 'svc_buyer_delivery.status'],
    ),
    step(
      'paid_out',
      'Paid out',
      payout.paid_at,
      anyOf(isSet(payout.paid_at), is(payout.status, 'paid')),
      ['svc_payout.status', 'svc_payout.paid_at'],
      payout.amount ? `Payout ${formatMoney(payout.amount)}` : undefined,
    ),
  ];
}
