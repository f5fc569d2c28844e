import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { QueryErrorBanner } from '../../components/error-banner';
import { Loading } from '../../components/states';
import { useApiClient } from '../../api/api-context';
import { ordersQuery } from '../../api/orders/order-queries';
import { wholeCatalogueQuery } from '../../api/listings/catalogue-query';
import type { Granularity } from '../../api/sales/sales-series';
import { soldAtByListing, type Dimension } from '../../api/sales/sell-through';
import { useNow } from '../../lib/use-now';
import { useFilterParams } from '../../lib/saved-views';
import { AgeSection } from './age-section';
import { METRICS, SalesSection, type Metric } from './sales-section';
import { SellThroughSection } from './sell-through-section';
import './insights.css';

const oneOf = <T extends string>(value: string | null, allowed: readonly T[], fallback: T): T =>
  (allowed as readonly string[]).includes(value ?? '') ? (value as T) : fallback;

/** Sales over time, sell-through and the age of what is live, as charts with their tables. */
export function InsightsPage() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const now = useNow(60_000);
  const [params, update] = useFilterParams();
  const by = oneOf<Granularity>(params.get('by'), ['day', 'week', 'month'], 'day');
  const metric = oneOf<Metric>(params.get('metric'), Object.keys(METRICS) as Metric[], 'net');
  const dimension = oneOf<Dimension>(
    params.get('breakdown'),
    ['grader', 'grade', 'category', 'price'],
    'grader',
  );
  const orders = useQuery(ordersQuery(client, queryClient));
  const listings = useQuery(wholeCatalogueQuery(client, queryClient));
  const loading = [orders, listings].some(
    (query) => query.isPending && query.fetchStatus !== 'idle',
  );
  const soldAt = useMemo(() => soldAtByListing(orders.data?.rows ?? []), [orders.data]);

  return (
    <section aria-labelledby="insights-heading">
      <h1 id="insights-heading">Insights</h1>
      <QueryErrorBanner query={orders} of="orders" />
      <QueryErrorBanner query={listings} of="listings" />
      {/* The sections appear together, in their order: one arriving first never moves under another. */}
      {loading && <Loading label="Loading orders and listings…" />}
      {!loading && orders.data && (
        <SalesSection
          orders={orders.data.rows}
          granularity={by}
          metric={metric}
          now={now}
          onChange={(next) => update({ by: next.by ?? by, metric: next.metric ?? metric })}
        />
      )}
      {!loading && listings.data && orders.data && (
        <SellThroughSection
          listings={listings.data.rows}
          soldAt={soldAt}
          dimension={dimension}
          onChange={(breakdown) => update({ breakdown })}
        />
      )}
      {!loading && listings.data && <AgeSection listings={listings.data.rows} now={now} />}
    </section>
  );
}

export { InsightsPage as Component };
