import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { BucketMeter } from '../../app/connection-status';
import { paths } from '../../app/paths';
import { ErrorBanner } from '../../components/error-banner';
import { ModeBadge } from '../../components/mode-badge';
import { Loading } from '../../components/states';
import { useApiClient } from '../../lib/api-context';
import { usePollInterval } from '../../lib/live/live-context';
import { pingQuery, REQUIRED_SCOPES } from '../../lib/connection-query';
import { formatDateTime, formatMoney, relativeTime } from '../../lib/format';
import { listingCountsQuery, orderCountsQuery } from './overview-queries';

/** The connection, the bucket, and what needs the seller today. */
export function OverviewPage() {
  const client = useApiClient();
  const ping = useQuery(pingQuery(client));
  const scopes = ping.data?.scopes ?? [];
  const canListings = scopes.includes('read_listings') || scopes.includes('write_listings');
  const canOrders = scopes.includes('read_orders') || scopes.includes('write_orders');
  const listings = useQuery({ ...listingCountsQuery(client), enabled: canListings });
  const poll = usePollInterval(15_000);
  const orders = useQuery({
    ...orderCountsQuery(client),
    enabled: canOrders,
    refetchInterval: poll,
  });

  return (
    <section aria-labelledby="overview-heading">
      <h1 id="overview-heading">Overview</h1>
      <div className="detail-grid">
        <section className="panel" aria-labelledby="connection-heading">
          <h2 id="connection-heading">Connection</h2>
          {ping.isPending && <Loading label="Checking the connection…" />}
          {ping.isError && (
            <ErrorBanner
              error={ping.error}
              title="The API did not answer /ping"
              onRetry={() => void ping.refetch()}
            />
          )}
          {ping.data && (
            <dl className="facts">
              <dt>Mode</dt>
              <dd>
                <ModeBadge mode={ping.data.mode} />{' '}
                {ping.data.mode === 'test'
                  ? 'test records only; buyers see nothing'
                  : 'real listings and orders'}
              </dd>
              <dt>Seller</dt>
              <dd>
                <code>{ping.data.seller_id}</code>
              </dd>
              <dt>Key id</dt>
              <dd>
                <code>{ping.data.key_id}</code>
              </dd>
              <dt>API version</dt>
              <dd>{ping.data.api_version}</dd>
              <dt>Scopes</dt>
              <dd>
                <ul className="scopes">
                  {ping.data.scopes.map((scope) => (
                    <li key={scope}>
                      <code>{scope}</code>
                    </li>
                  ))}
                </ul>
              </dd>
              <dt>Server time</dt>
              <dd>{formatDateTime(ping.data.server_time)}</dd>
            </dl>
          )}
          <h3>Rate limit</h3>
          <BucketMeter />
        </section>

        <section className="panel" aria-labelledby="today-heading">
          <h2 id="today-heading">Today</h2>
          {ping.data && !canListings && (
            <p className="banner banner-info">Listing counts need the scope read_listings.</p>
          )}
          {listings.isError && (
            <ErrorBanner
              error={listings.error}
              title="Listings could not be counted"
              scope={REQUIRED_SCOPES.listings}
            />
          )}
          {ping.data && !canOrders && (
            <p className="banner banner-info">Order counts need the scope read_orders.</p>
          )}
          {orders.isError && (
            <ErrorBanner
              error={orders.error}
              title="Orders could not be counted"
              scope={REQUIRED_SCOPES.orders}
            />
          )}
          <dl className="stats">
            <div>
              <dt>Live listings</dt>
              <dd>{listings.data ? (listings.data.byStatus.active ?? 0) : '…'}</dd>
              <dd className="muted">
                {listings.data ? `of ${listings.data.total} in the catalogue` : ''}
              </dd>
            </div>
            <div>
              <dt>Awaiting shipment</dt>
              <dd>{orders.data ? orders.data.awaitingShipment.length : '…'}</dd>
              <dd className="muted">{orders.data ? `${orders.data.open} open orders` : ''}</dd>
            </div>
            <div>
              <dt>Payouts pending</dt>
              <dd>{orders.data ? orders.data.payoutsPending : '…'}</dd>
              <dd className="muted">
                {orders.data ? `about ${formatMoney(orders.data.pendingAmount)}` : ''}
              </dd>
            </div>
          </dl>
          <p>
            <Link to={paths.listings.to(new URLSearchParams({ status: 'active' }))}>
              See live listings
            </Link>{' '}
            ·{' '}
            <Link to={paths.orders.to(new URLSearchParams({ status: 'open' }))}>
              See open orders
            </Link>
          </p>
        </section>
      </div>

      {orders.data && orders.data.awaitingShipment.length > 0 && (
        <section className="panel" aria-labelledby="ship-heading">
          <h2 id="ship-heading">Ship these to the hub</h2>
          <table className="simple-table">
            <caption className="visually-hidden">
              Orders awaiting shipment, soonest deadline first
            </caption>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Card</th>
                <th scope="col">Ship by</th>
              </tr>
            </thead>
            <tbody>
              {orders.data.awaitingShipment.slice(0, 8).map((order) => (
                <tr key={order.id}>
                  <td>
                    <Link to={paths.order.to(order.id)}>{order.name}</Link>
                  </td>
                  <td>{order.line_items[0]?.title}</td>
                  <td>
                    {formatDateTime(order.svc_seller_shipment.ship_by)}{' '}
                    <span className="muted">
                      ({relativeTime(order.svc_seller_shipment.ship_by)})
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </section>
  );
}

export { OverviewPage as Component };
