import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ListingRead } from '../../../client';
import { useApiClient } from '../../../api/api-context';
import { catalogueQuery } from '../../../api/listings/catalogue-query';
import { ordersQuery } from '../../../api/orders/order-queries';
import { recentSalesOf, type CardSale } from '../../../api/sales/card-sales';
import { DataTable, type Column } from '../../../components/data-table';
import { Money, ShortDate } from '../../../components/figure';

const COLUMNS: readonly Column<CardSale>[] = [
  { id: 'when', header: 'Sold', cell: (sale) => <ShortDate iso={sale.soldAt} /> },
  { id: 'price', header: 'Price', align: 'right', cell: (sale) => <Money amount={sale.price} /> },
  { id: 'where', header: 'Where', cell: () => 'Online' },
];

/**
 * The seller's recent sales of the same card and grade (grader, grade, title, year and set, as
 * the listing's card gives them), newest first: what the last ones fetched, at a glance.
 */
export function RecentSales({ listing }: { listing: ListingRead }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const orders = useQuery(ordersQuery(client, queryClient));
  const catalogue = useQuery(catalogueQuery(client, queryClient));
  const whole = orders.data?.complete === true && catalogue.data?.complete === true;
  const sales = useMemo(
    () =>
      orders.data && catalogue.data
        ? recentSalesOf(listing, catalogue.data.rows, orders.data.rows)
        : [],
    [listing, orders.data, catalogue.data],
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
          getRowId={(sale) => sale.orderId}
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
    </section>
  );
}
