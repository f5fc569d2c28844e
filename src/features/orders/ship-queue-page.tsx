import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { paths } from '../../shared/paths';
import { QueryErrorBanner } from '../../components/error-banner';
import { Figure } from '../../components/figure';
import { fieldOf, RecordField } from '../../components/record-field';
import { EmptyState, Loading } from '../../components/states';
import { ListPageFrame } from '../../components/list-page-frame';
import { overdueCount, TimeLeft } from '../../components/time-left';
import { useApiClient } from '../../api/api-context';
import { useNow } from '../../lib/use-now';
import { OrderLink } from '../../components/order-link';
import { useSlabFactsForRows } from '../../api/listings/slab-facts';
import { SlabLine } from './slab-line';
import './orders.css';
import { orderListQuery } from '../../api/orders/order-queries';
import './ship-queue.css';
import { shipQueue } from '../../api/orders/shipment';
import { DataTable, withIdsSelected, type Column } from '../../components/data-table';

/** Every open order awaiting the seller's shipment to the hub, soonest `ship_by` first. */
export function ShipQueuePage() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const now = useNow(60_000);
  const query = useQuery({
    ...orderListQuery(client, queryClient, 'open'),
    refetchInterval: 15_000,
  });
  const queue = useMemo(() => shipQueue(query.data?.rows ?? []), [query.data]);
  const { slabs, ready: namesReady } = useSlabFactsForRows();
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const chosen = queue.filter((order) => selected.has(order.id));
  const columns: Column<(typeof queue)[number]>[] = [
    { id: 'order', header: 'Order', cell: (order) => <OrderLink order={order} /> },
    {
      id: 'card',
      header: 'Card',
      cell: (order) => (
        <SlabLine order={order} slab={slabs?.get(order.line_items?.[0]?.product_id ?? '')} />
      ),
    },
    {
      id: 'cert',
      header: 'Cert',
      cell: (order) => (
        <RecordField {...fieldOf(order, 'line_items')}>
          {(items) => <Figure kind="cert">{items[0]?.sku ?? '—'}</Figure>}
        </RecordField>
      ),
    },
    { id: 'left', header: 'Time left', cell: (order) => <TimeLeft order={order} now={now} /> },
  ];
  const overdue = overdueCount(queue, now);

  return (
    <ListPageFrame
      id="ship-queue"
      title="Ship to the hub"
      actions={
        chosen.length > 0 ? (
          <Link className="button primary" to={paths.packingSheet.to(chosen.map((o) => o.id))}>
            Packing sheet for {chosen.length} selected
          </Link>
        ) : (
          <span className="muted">
            Select the cards going into one box for a packing sheet; scan each slab there to check
            it is the right one.
          </span>
        )
      }
      problems={<QueryErrorBanner query={query} of="orders" />}
      loading={query.isPending ? 'Loading open orders…' : undefined}
      summary={query.data && `${queue.length} to ship${overdue > 0 ? `, ${overdue} overdue` : ''}`}
      empty={
        query.data && queue.length === 0 ? (
          <EmptyState title="Nothing to ship to the hub" />
        ) : undefined
      }
    >
      {queue.length > 0 && !namesReady && <Loading label="Loading the cards…" />}
      {queue.length > 0 && namesReady && (
        <DataTable
          caption="Orders awaiting shipment to the hub"
          className="ship-queue-table"
          rows={queue}
          columns={columns}
          getRowId={(order) => order.id}
          windowed={false}
          selection={{
            selected,
            onChange: (ids, on) => setSelected((current) => withIdsSelected(current, ids, on)),
            rowLabel: (order) => order.name ?? order.id,
          }}
        />
      )}
    </ListPageFrame>
  );
}

export { ShipQueuePage as Component };
