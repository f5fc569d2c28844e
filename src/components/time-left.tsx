import type { OrderFacts as Order } from '../api/sales/sales-queries';
import { relativeTime } from '../lib/format';
import { ShortDate } from './figure';

const deadlinePassed = (iso: string | null | undefined, now: number) =>
  !!iso && Date.parse(iso) < now;

/** How many of the orders are past their `ship_by`. */
export const overdueCount = (orders: readonly Order[], now: number) =>
  orders.filter((order) => deadlinePassed(order.svc_seller_shipment?.ship_by, now)).length;

/** Time left before `ship_by`; red when overdue, with the `cancel_after` it must beat. */
export function TimeLeft({ order, now }: { order: Order; now: number }) {
  const { ship_by: shipBy, cancel_after: cancelAfter } = order.svc_seller_shipment ?? {};
  if (!shipBy) return <span className="muted">no deadline shown</span>;
  if (deadlinePassed(shipBy, now)) {
    return (
      <span className="overdue">
        Overdue since <ShortDate iso={shipBy} time />
        {cancelAfter && (
          <>
            ; cancelled if not shipped by <ShortDate iso={cancelAfter} time /> (
            {relativeTime(cancelAfter, now)})
          </>
        )}
      </span>
    );
  }
  return (
    <span>
      Due {relativeTime(shipBy, now)}{' '}
      <span className="muted">
        (<ShortDate iso={shipBy} time />)
      </span>
    </span>
  );
}
