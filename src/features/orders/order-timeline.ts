import type { Order } from '../../client';

export interface TimelineStep {
  id: string;
  label: string;
  at: string | null;
  done: boolean;
  detail?: string;
}

/**
 * The order's lifecycle as steps: sold → shipped to hub → delivered to hub → authenticated →
 * shipped to buyer → delivered → paid out, each with its date when it happened.
 */
export function orderTimeline(order: Order): TimelineStep[] {
  const shipment = order.svc_seller_shipment;
  const auth = order.svc_authentication;
  const buyer = order.svc_buyer_delivery;
  const payout = order.svc_payout;
  const shippedToHub = shipment.shipped_at !== null || shipment.tracking_number !== null;
  const deliveredToHub = shipment.delivered_to_hub_at !== null || shipment.status === 'delivered';
  const authenticated = auth.status === 'passed' || auth.completed_at !== null;
  const shippedToBuyer =
    (buyer?.shipped_at ?? null) !== null || order.fulfillment_status === 'fulfilled';
  const delivered = (buyer?.delivered_at ?? null) !== null || buyer?.status === 'delivered';
  const paidOut = payout.status === 'paid' || payout.paid_at !== null;
  return [
    {
      id: 'sold',
      label: 'Sold',
      at: order.svc_sold_at,
      done: true,
      detail: `via ${order.svc_sale_channel.replace(/_/g, ' ')}`,
    },
    {
      id: 'shipped_to_hub',
      label: 'Shipped to the hub',
      at: shipment.shipped_at,
      done: shippedToHub,
      detail: shipment.tracking_number
        ? `Tracking ${shipment.carrier_code ? `${shipment.carrier_code} ` : ''}${shipment.tracking_number}`
        : undefined,
    },
    {
      id: 'delivered_to_hub',
      label: 'Delivered to the hub',
      at: shipment.delivered_to_hub_at,
      done: deliveredToHub,
    },
    {
      id: 'authenticated',
      label: 'Authenticated',
      at: auth.completed_at,
      done: authenticated,
      detail: `Authentication ${auth.status}`,
    },
    {
      id: 'shipped_to_buyer',
      label: 'Shipped to the buyer',
      at: buyer?.shipped_at ?? null,
      done: shippedToBuyer,
    },
    {
      id: 'delivered',
      label: 'Delivered to the buyer',
      at: buyer?.delivered_at ?? null,
      done: delivered,
    },
    {
      id: 'paid_out',
      label: 'Paid out',
      at: payout.paid_at,
      done: paidOut,
      detail: payout.amount ? `Payout ${payout.amount} ${order.currency}` : undefined,
    },
  ];
}
