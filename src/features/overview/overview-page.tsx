import { useQuery, useQueryClient } from '@tanstack/react-query';
import { QueryErrorBanner } from '../../components/error-banner';
import { SetAsideNotice } from '../../components/set-aside-notice';
import { useApiClient } from '../../lib/api-context';
import { usePollInterval } from '../../lib/live/live-context';
import { pingQuery } from '../../lib/connection-query';
import { mayRead, REQUIRED_SCOPES } from '../../lib/required-scopes';
import { allOrdersQuery, listingsQuery, openOrderIdsQuery } from '../../lib/sales/sales-queries';
import { useNow } from '../../lib/use-now';
import { ConnectionStrip } from './connection-strip';
import { MoneyPanel } from './money-panel';
import { WorkPanel } from './work-panel';
import './overview.css';

/** A seller's overview: money and work first, the connection in a strip. */
export function OverviewPage() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const now = useNow(60_000);
  const ping = useQuery(pingQuery(client));
  // No answer yet: nothing may be read; an answer without scopes refuses nothing (see mayRead).
  const scopes = ping.data ? ping.data.scopes : [];
  const canListings = mayRead(scopes, 'listings');
  const canOrders = mayRead(scopes, 'orders');
  const poll = usePollInterval(15_000);
  const orders = useQuery({
    ...allOrdersQuery(client, queryClient),
    enabled: canOrders,
    refetchInterval: poll,
  });
  const open = useQuery({
    ...openOrderIdsQuery(client),
    enabled: canOrders,
    refetchInterval: poll,
  });
  const listings = useQuery({ ...listingsQuery(client, queryClient), enabled: canListings });
  /** Until the key's scopes are known, or while the orders it may read are on their way. */
  const waiting = ping.isPending || (canOrders && orders.isPending);

  return (
    <section aria-labelledby="overview-heading">
      <h1 id="overview-heading">Overview</h1>
      <ConnectionStrip />
      {ping.data && !canOrders && (
        <p className="banner banner-info">Money and shipping need the scope read_orders.</p>
      )}
      {ping.data && !canListings && (
        <p className="banner banner-info">Listing figures need the scope read_listings.</p>
      )}
      <QueryErrorBanner
        query={orders}
        title="Orders could not be loaded"
        scope={REQUIRED_SCOPES.orders}
      />
      <QueryErrorBanner
        query={listings}
        title="Listings could not be loaded"
        scope={REQUIRED_SCOPES.listings}
      />
      {orders.data && <SetAsideNotice records={orders.data.setAside} noun="order" />}
      {/* Money first, drawn as its frame at once (its figures fill it); Work comes with the
          orders, beside it on a desk and under it on a phone, so nothing drawn moves. */}
      <div className="detail-grid overview-grid">
        {(waiting || orders.data) && <MoneyPanel rows={orders.data?.rows} now={now} />}
        {!waiting && (
          <WorkPanel
            orders={orders.data?.rows}
            openCount={open.data?.length}
            listings={listings.data?.rows}
            now={now}
          />
        )}
      </div>
    </section>
  );
}

export { OverviewPage as Component };
