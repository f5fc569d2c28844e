import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { RecordField } from '../../components/record-field';
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
import { TableHead } from '../../components/table-head';
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
      {query.isError && (
        <ErrorBanner
          error={query.error}
          title="Orders could not be loaded"
          scope={REQUIRED_SCOPES.orders}
        />
      )}
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
        <table className="simple-table stack-table packing-table">
          <caption className="visually-hidden">Cards in this box</caption>
          <TableHead columns={['Order code', 'Card', 'Cert', 'Grader', 'Scanned', 'Barcode']} />
          <tbody>
            {orders.map((order) => {
              const line = order.line_items?.[0];
              const grader = line ? cards.data?.get(line.inventory_item_id)?.grader : undefined;
              const code = line?.sku || order.name;
              const lineField = { record: order, path: 'line_items', value: order.line_items };
              return (
                <tr key={order.id}>
                  <td className="figure" data-label="Order code">
                    <RecordField record={order} path="name" value={order.name}>
                      {String}
                    </RecordField>
                  </td>
                  <td className="stack-title">
                    <RecordField {...lineField}>{() => line?.title ?? '—'}</RecordField>
                  </td>
                  <td className="figure" data-label="Cert">
                    <RecordField {...lineField}>{() => line?.sku ?? '—'}</RecordField>
                  </td>
                  <td data-label="Grader">{grader ?? (cards.isPending ? '…' : 'not shown')}</td>
                  <td data-label="Scanned">
                    {packed.has(order.id) ? (
                      <>
                        ✓{' '}
                        <Figure kind="date">
                          {formatShortDate(packed.get(order.id)!.at, { time: true })}
                        </Figure>
                      </>
                    ) : (
                      <span className="muted">not yet</span>
                    )}
                  </td>
                  <td data-label="Barcode">
                    {/* Neither the cert nor the order code shown: no code to print. */}
                    <RecordField record={order} path="line_items" value={code}>
                      {(value) => <Barcode value={value} />}
                    </RecordField>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

export { PackingSheetPage as Component };
