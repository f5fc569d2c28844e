import { Link } from 'react-router';
import type {
  ListingFacts as ListingRead,
  OrderFacts as Order,
} from '../../api/sales/sales-queries';
import { paths } from '../../shared/paths';
import { OrderCardTitle, OrderLink } from '../../components/order-link';
import { overdueCount, TimeLeft } from '../../components/time-left';
import { relativeTime } from '../../lib/format';
import { Money, ShortDate } from '../../components/figure';
import { windowsEndingSoon } from './overview-figures';
import { shipQueue } from '../../api/orders/shipment';
import { DataTable } from '../../components/data-table';
import { Fact } from '../../components/fact';

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
  const overdue = queue && overdueCount(queue, now);
  const windows = listings ? windowsEndingSoon(listings, now) : undefined;
  return (
    <section className="panel" aria-labelledby="work-heading">
      <h2 id="work-heading">Work</h2>
      <dl className="stats">
        <div>
          <Fact label="To ship to the hub">{queue ? queue.length : '…'}</Fact>
          <dd className={overdue ? 'muted overdue' : 'muted'}>
            {overdue ? `${overdue} overdue` : queue ? 'none overdue' : ''}
          </dd>
        </div>
        <Fact label="Open orders" note="sold, in progress">
          {openCount ?? '…'}
        </Fact>
        <Fact
          label="Live listings"
          note={windows?.shown ? `${windows.soon.length} ending within 3 days` : ''}
        >
          {windows ? windows.live : '…'}
        </Fact>
      </dl>
      {queue && queue.length > 0 && (
        <DataTable
          caption="Ship these to the hub, soonest deadline first"
          showCaption
          windowed={false}
          rows={queue.slice(0, 6)}
          getRowId={(order) => order.id}
          columns={[
            { id: 'order', header: 'Order', cell: (order) => <OrderLink order={order} /> },
            { id: 'card', header: 'Card', cell: (order) => <OrderCardTitle order={order} /> },
            {
              id: 'left',
              header: 'Time left',
              cell: (order) => <TimeLeft order={order} now={now} />,
            },
          ]}
        />
      )}
      <p>
        <Link to={paths.shipQueue.to()}>Ship-to-hub queue and packing sheet</Link> ·{' '}
        <Link to={paths.orders.to(new URLSearchParams({ status: 'open' }))}>Open orders</Link>
      </p>
      {windows && !windows.shown && (
        <p className="muted">This API does not show when listing windows end.</p>
      )}
      {windows?.shown && windows.soon.length > 0 && (
        <DataTable
          caption="Listing windows ending within 3 days"
          showCaption
          windowed={false}
          rows={windows.soon.slice(0, 6)}
          getRowId={(listing) => listing.id}
          columns={[
            {
              id: 'listing',
              header: 'Listing',
              cell: (listing) => (
                <Link to={paths.listing.to(listing.id)}>{listing.title ?? listing.id}</Link>
              ),
            },
            {
              id: 'price',
              header: 'Price',
              align: 'right',
              cell: (listing) => <Money amount={listing.price} />,
            },
            {
              id: 'ends',
              header: 'Window ends',
              cell: (listing) => (
                <>
                  <ShortDate iso={listing.window_ends_at} time /> (
                  {relativeTime(listing.window_ends_at, now)})
                </>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}
