import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { fieldOf, RecordField } from '../../components/record-field';
import { OrderCardTitle } from '../../components/order-link';
import { Barcode } from '../../components/barcode';
import { ErrorBanner } from '../../components/error-banner';
import { Loading } from '../../components/states';
import { useApiClient } from '../../api/api-context';
import { REQUIRED_SCOPES } from '../../api/required-scopes';
import { formatDateTime, formatShortDate, countOf } from '../../lib/format';
import { Figure } from '../../components/figure';
import { cardFactsQuery } from '../../api/inventory/inventory-queries';
import { orderListQuery } from '../../api/orders/order-queries';
import './ship-queue.css';
import { DataTable, type Column } from '../../components/data-table';
import type { Order } from '../../client';
import { slabFactsQuery } from '../../api/listings/slab-facts';
import { PackCheck, usePackedSlabs } from './pack-check';

/** A printable packing sheet for the orders going into one box, each with a scannable barcode. */
export function PackingSheetPage() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const ids = (params.get('orders') ?? '').split(',').filter(Boolean);
  const query = useQuery(orderListQuery(client, queryClient, 'open'));
  const cards = useQuery(cardFactsQuery(client, queryClient));
  const byId = new Map((query.data?.rows ?? []).map((order) => [order.id, order]));
  const orders = ids.map((id) => byId.get(id)).filter((o) => o !== undefined);
  const missing = query.data ? ids.filter((id) => !byId.has(id)) : [];
  const slabs = useQuery(slabFactsQuery(client, queryClient)).data;
  const [packed, setPacked] = usePackedSlabs(ids);
  const lineOf = (order: Order) => order.line_items?.[0];
  const columns: Column<Order>[] = [
    {
      id: 'code',
      header: 'Order code',
      className: 'figure',
      cell: (order) => <RecordField {...fieldOf(order, 'name')}>{String}</RecordField>,
    },
    {
      id: 'card',
      header: 'Card',
      cell: (order) => <OrderCardTitle order={order} />,
    },
    {
      id: 'cert',
      header: 'Cert',
      className: 'figure',
      cell: (order) => (
        <RecordField {...fieldOf(order, 'line_items')}>
          {(items) => items[0]?.sku ?? '—'}
        </RecordField>
      ),
    },
    {
      id: 'grader',
      header: 'Grader',
      cell: (order) => {
        const line = lineOf(order);
        const grader = line ? cards.data?.get(line.inventory_item_id)?.grader : undefined;
        return grader ?? (cards.isPending ? '…' : 'not shown');
      },
    },
    {
      id: 'scanned',
      header: 'Scanned',
      cell: (order) => {
        const scan = packed.get(order.id);
        return scan ? (
          <>
            ✓ <Figure kind="date">{formatShortDate(scan.at, { time: true })}</Figure>
          </>
        ) : (
          <span className="muted">not yet</span>
        );
      },
    },
    {
      id: 'barcode',
      header: 'Barcode',
      // Neither the cert nor the order code shown: no code to print.
      cell: (order) => (
        <RecordField record={order} path="line_items" value={lineOf(order)?.sku || order.name}>
          {(value) => <Barcode value={value} />}
        </RecordField>
      ),
    },
  ];
  return (
    <section aria-labelledby="packing-heading" className="packing-sheet">
      <div className="page-head">
        <h1 id="packing-heading">Packing sheet</h1>
        <div className="page-actions no-print">
          <button type="button" onClick={() => window.print()}>
            Print
          </button>
        </div>
      </div>
      <p>
        {orders.length} {orders.length === 1 ? 'card' : 'cards'} for the hub · prepared{' '}
        <Figure kind="date">{formatDateTime(new Date().toISOString())}</Figure>
      </p>
      <ErrorBanner
        error={query.error}
        title="Orders could not be loaded"
        scope={REQUIRED_SCOPES.orders}
      />
      {query.isPending && <Loading label="Loading orders…" />}
      {missing.length > 0 && (
        <p className="banner banner-warn" role="status">
          {countOf(missing.length, 'order')} are no longer open and are left off this sheet.
        </p>
      )}
      {orders.length > 0 && (
        <PackCheck
          orders={orders}
          slabs={slabs}
          packed={packed}
          onPacked={(orderId, slab) => setPacked((current) => new Map(current).set(orderId, slab))}
        />
      )}
      {orders.length > 0 && (
        <DataTable
          caption="Cards in this box"
          className="packing-table"
          rows={orders}
          columns={columns}
          getRowId={(order) => order.id}
          windowed={false}
          cards={{ title: 'card', fields: [] }}
        />
      )}
    </section>
  );
}

export { PackingSheetPage as Component };
