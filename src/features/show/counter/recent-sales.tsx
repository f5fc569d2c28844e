import { useQueries, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ListingRead } from '../../../client';
import { useApiClient } from '../../../api/api-context';
import { catalogueQuery } from '../../../api/listings/catalogue-query';
import { ordersQuery } from '../../../api/orders/order-queries';
import { recentSalesOf, type CardSale, type LedgerSale } from '../../../api/sales/card-sales';
import { showQuery, showsQuery } from '../../../api/shows/show-queries';
import { ShowsUnavailable, type ShowPage } from '../../../api/shows/show-api';
import { DataTable, type Column } from '../../../components/data-table';
import { Money, ShortDate } from '../../../components/figure';

/** The shows whose ledgers are read for past sales: the newest, as prices move. */
const SHOWS_READ = 10;

const COLUMNS: readonly Column<CardSale>[] = [
  { id: 'when', header: 'Sold', cell: (sale) => <ShortDate iso={sale.soldAt} /> },
  { id: 'price', header: 'Price', align: 'right', cell: (sale) => <Money amount={sale.price} /> },
  {
    id: 'where',
    header: 'Where',
    cell: (sale) => (sale.where.kind === 'online' ? 'Online' : `At ${sale.where.showName}`),
  },
];

/** Every sale in the ledgers read (stable, so React Query keeps the result while none changes). */
function ledgerSales(results: readonly UseQueryResult<ShowPage>[]) {
  return {
    sales: results.flatMap((result): LedgerSale[] => {
      const page = result.data;
      if (!page) return [];
      return page.entries.map((entry) => ({
        key: entry.key,
        listingId: entry.listingId,
        soldAt: entry.soldAt,
        priceCents: entry.priceCents,
        showName: page.show.name,
      }));
    }),
    pending: results.some((result) => result.isPending),
    failed: results.some((result) => result.isError),
  };
}

/** Recent sales of the same card and grade, online and at shows, newest first: the going price. */
export function RecentSales({ listing }: { listing: ListingRead }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const orders = useQuery(ordersQuery(client, queryClient));
  const catalogue = useQuery(catalogueQuery(client, queryClient));
  const shows = useQuery(showsQuery(client));
  const newest = useMemo(
    () => [...(shows.data ?? [])].sort((a, b) => b.date.localeCompare(a.date)).slice(0, SHOWS_READ),
    [shows.data],
  );
  const ledgers = useQueries({
    queries: newest.map((show) => showQuery(client, show.key)),
    combine: ledgerSales,
  });
  const showsKnown = shows.isError || (shows.data !== undefined && !ledgers.pending);
  const whole = orders.data?.complete === true && catalogue.data?.complete === true && showsKnown;
  const sales = useMemo(
    () =>
      orders.data && catalogue.data
        ? recentSalesOf(listing, catalogue.data.rows, orders.data.rows, ledgers.sales)
        : [],
    [listing, orders.data, catalogue.data, ledgers.sales],
  );
  let body: React.ReactNode;
  if (orders.isError && !orders.data) {
    body = <p className="muted">Your orders could not be read, so past sales are not known.</p>;
  } else if (!whole && sales.length === 0) {
    body = (
      <p className="muted" role="status">
        Reading your orders for past sales of this card…
      </p>
    );
  } else if (sales.length === 0) {
    body = <p className="muted">No sales of this card yet.</p>;
  } else {
    body = (
      <>
        <DataTable
          caption="Recent sales of this card"
          rows={sales}
          columns={COLUMNS}
          getRowId={(sale) => sale.id}
          height={sales.length * 44 + 48}
          rowHeight={40}
        />
        {!whole && (
          <p className="muted" role="status">
            Still reading your orders: more may come.
          </p>
        )}
      </>
    );
  }
  return (
    <section className="recent-sales" aria-labelledby="recent-sales-heading">
      <h2 id="recent-sales-heading">Recent sales of this card</h2>
      {body}
      {((shows.isError && !(shows.error instanceof ShowsUnavailable)) || ledgers.failed) && (
        <p className="muted">Sales at shows could not be read: only online sales are shown.</p>
      )}
    </section>
  );
}
