import { useDeferredValue, useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { QueryErrorBanner } from '../../components/error-banner';
import { useApiClient } from '../../api/api-context';
import { usePollInterval } from '../../api/live/live-context';
import { pingQuery } from '../../api/connection-query';
import { mayRead, REQUIRED_SCOPES } from '../../api/required-scopes';
import { ordersQuery, openOrderIdsQuery } from '../../api/orders/order-queries';
import { wholeCatalogueQuery } from '../../api/listings/catalogue-query';
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
    ...ordersQuery(client, queryClient),
    enabled: canOrders,
    refetchInterval: poll,
  });
  const open = useQuery({
    ...openOrderIdsQuery(client, queryClient),
    enabled: canOrders,
    refetchInterval: poll,
  });
  const listings = useQuery({ ...wholeCatalogueQuery(client, queryClient), enabled: canListings });
  /** Until the key's scopes are known, or while the orders it may read are on their way. */
  const waiting = ping.isPending || (canOrders && orders.isPending);
  // The panels follow the data in an interruptible render: a read landing is no long task.
  const shown = useDeferredValue(
    useMemo(
      () => ({ waiting, orders: orders.data, open: open.data, listings: listings.data }),
      [waiting, orders.data, open.data, listings.data],
    ),
  );

  // Memoised: the urgent render before the deferred one leaves the panels as they are.
  const panels = useMemo(
    () => (
      <>
        {(shown.waiting || shown.orders) && <MoneyPanel rows={shown.orders?.rows} now={now} />}
        {!shown.waiting && (
          <WorkPanel
            orders={shown.orders?.rows}
            openCount={shown.open?.length}
            listings={shown.listings?.rows}
            now={now}
          />
        )}
      </>
    ),
    [shown, now],
  );

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
      <QueryErrorBanner query={orders} of="orders" />
      <QueryErrorBanner
        query={listings}
        title="Listings could not be loaded"
        scope={REQUIRED_SCOPES.listings}
      />
      {/* Money first, its frame at once; Work comes with the orders, so nothing drawn moves. */}
      <div className="detail-grid overview-grid">{panels}</div>
    </section>
  );
}

export { OverviewPage as Component };
