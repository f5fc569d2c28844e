import { Link } from 'react-router';
import type {
  ListingFacts as ListingRead,
  OrderFacts as Order,
} from '../../api/sales/sales-queries';
import { paths } from '../../shared/paths';
import { OrderCardTitle, OrderLink } from '../../components/order-link';
import { deadlinePassed, TimeLeft } from '../../components/time-left';
import { relativeTime } from '../../lib/format';
import { Money, ShortDate } from '../../components/figure';
import { shipQueue, windowsEndingSoon } from './overview-figures';

/** What must be done: orders to ship to the hub by their deadlines, and windows ending soon. */
export function WorkPanel({
  orders,
  openCount,
  listings,
  now,
}: {
  orders: readonly Order[] | undefined;
  openCount: number | undefined;
  listings: readonly ListingRead[] | undefined;
  now: number;
}) {
  const queue = orders ? shipQueue(orders) : undefined;
  const overdue = queue?.filter((o) =>
    deadlinePassed(o.svc_seller_shipment?.ship_by ?? null, now),
  ).length;
  const windows = listings ? windowsEndingSoon(listings, now) : undefined;
  return (
    <section className="panel" aria-labelledby="work-heading">
      <h2 id="work-heading">Work</h2>
      <dl className="stats">
        <div>
          <dt>To ship to the hub</dt>
          <dd>{queue ? queue.length : '…'}</dd>
          <dd className={overdue ? 'muted overdue' : 'muted'}>
            {overdue ? `${overdue} overdue` : queue ? 'none overdue' : ''}
          </dd>
        </div>
        <div>
          <dt>Open orders</dt>
          <dd>{openCount ?? '…'}</dd>
          <dd className="muted">sold, in progress</dd>
        </div>
        <div>
          <dt>Live listings</dt>
          <dd>{windows ? windows.live : '…'}</dd>
          <dd className="muted">
            {windows?.shown ? `${windows.soon.length} ending within 3 days` : ''}
          </dd>
        </div>
      </dl>
      {queue && queue.length > 0 && (
        <table className="simple-table stack-table">
          <caption>Ship these to the hub, soonest deadline first</caption>
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Card</th>
              <th scope="col">Time left</th>
            </tr>
          </thead>
          <tbody>
            {queue.slice(0, 6).map((order) => (
              <tr key={order.id}>
                <td className="stack-title">
                  <OrderLink order={order} />
                </td>
                <td data-label="Card">
                  <OrderCardTitle order={order} />
                </td>
                <td data-label="Time left">
                  <TimeLeft order={order} now={now} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        <Link to={paths.shipQueue.to()}>Ship-to-hub queue and packing sheet</Link> ·{' '}
        <Link to={paths.orders.to(new URLSearchParams({ status: 'open' }))}>Open orders</Link>
      </p>
      {windows && !windows.shown && (
        <p className="muted">This API does not show when listing windows end.</p>
      )}
      {windows?.shown && windows.soon.length > 0 && (
        <table className="simple-table stack-table">
          <caption>Listing windows ending within 3 days</caption>
          <thead>
            <tr>
              <th scope="col">Listing</th>
              <th scope="col" className="num">
                Price
              </th>
              <th scope="col">Window ends</th>
            </tr>
          </thead>
          <tbody>
            {windows.soon.slice(0, 6).map((listing) => (
              <tr key={listing.id}>
                <td className="stack-title">
                  <Link to={paths.listing.to(listing.id)}>{listing.title ?? listing.id}</Link>
                </td>
                <td className="num" data-label="Price">
                  <Money amount={listing.price} />
                </td>
                <td data-label="Window ends">
                  <ShortDate iso={listing.window_ends_at} time /> (
                  {relativeTime(listing.window_ends_at, now)})
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
