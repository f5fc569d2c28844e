import type { Order } from '../client';
import { awaitsShipment } from '../api/orders/shipment';
import { formatDateTime, formatMoney } from './format';

/** Browser notices (Notification API), opt-in: the seller turns them on in the events view. */
const PREFERENCE = 'slabdesk.notifications';
/** An order whose seller shipment is due within this is "ship by soon". */
export const SHIP_BY_SOON_MS = 24 * 60 * 60_000;

export function notificationsSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

export function notificationsOn(): boolean {
  return (
    notificationsSupported() &&
    Notification.permission === 'granted' &&
    localStorage.getItem(PREFERENCE) === 'on'
  );
}

/** Asks the browser for permission (from a click) and remembers the choice. */
export async function turnNotificationsOn(): Promise<NotificationPermission> {
  if (!notificationsSupported()) return 'denied';
  const permission = await Notification.requestPermission();
  if (permission === 'granted') localStorage.setItem(PREFERENCE, 'on');
  return permission;
}

export function turnNotificationsOff(): void {
  localStorage.removeItem(PREFERENCE);
}

const shipByNotified = new Set<string>();

/** The notice an order event deserves, if any: a new sale, or a shipment due soon. */
export function noticeFor(
  topic: string,
  order: Order,
  now: number,
): { title: string; body: string; tag: string } | null {
  const item = order.line_items?.[0];
  const shipment = order.svc_seller_shipment;
  const code = order.name ?? order.id;
  if (topic === 'orders/create') {
    // What the delivery did not show is left out of the notice, never filled in.
    const price = order.total_price === undefined ? '' : ` for ${formatMoney(order.total_price)}`;
    const shipBy = shipment?.ship_by ? ` Ship by ${formatDateTime(shipment.ship_by)}.` : '';
    return {
      title: `Sold: ${item?.title ?? code}`,
      body: `Order ${code}${price}.${shipBy}`,
      tag: `sale-${order.id}`,
    };
  }
  const shipByAt = shipment?.ship_by;
  const shipBy = Date.parse(shipByAt ?? '');
  if (
    shipByAt &&
    awaitsShipment(order) &&
    Number.isFinite(shipBy) &&
    shipBy - now < SHIP_BY_SOON_MS &&
    !shipByNotified.has(order.id)
  ) {
    shipByNotified.add(order.id);
    return {
      title: `Ship soon: ${code}`,
      body: `${item?.title ?? 'The card'} must ship to the hub by ${formatDateTime(shipByAt)}.`,
      tag: `ship-by-${order.id}`,
    };
  }
  return null;
}

export function notify(notice: { title: string; body: string; tag: string }): void {
  if (!notificationsOn()) return;
  new Notification(notice.title, { body: notice.body, tag: notice.tag });
}
