import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { paths } from '../../shared/paths';
import { OrderLink } from '../../components/order-link';
import { QueryErrorBanner } from '../../components/error-banner';
import { FieldValue } from '../../components/field-value';
import { RecordField } from '../../components/record-field';
import { Loading } from '../../components/states';
import { useApiClient } from '../../api/api-context';
import { countOf, formatUtcMonth, leftOutNote } from '../../lib/format';
import { Money, ShortDate } from '../../components/figure';
import { sumKnown } from '../../api/sales/money';
import { centsOf, formatCents } from '../../shared/money';
import { isCounted, isRefundedAway, orderMoney } from '../../api/sales/order-money';
import { reconcile } from '../../api/sales/reconcile';
import { ReconcileNote } from './reconcile-note';
import './payouts.css';
import { ordersQuery } from '../../api/orders/order-queries';
import { useCardFacts } from '../../api/inventory/inventory-queries';
import { payoutsByMonth, type PayoutMonth } from './payout-figures';
import { compareCodes } from '../../api/compare-codes';
import { DataTable } from '../../components/data-table';
import { SlabIdentity } from '../../components/slab-identity';
import { slabFactsQuery } from '../../api/listings/slab-facts';
import { Fact } from '../../components/fact';

const money = (cents: number) => <Money amount={formatCents(cents)} />;
const MONTH_SUMS = [
  ['sales', 'Sales', 'salesCents'],
  ['fees', 'Fees', 'feesCents'],
  ['refunds', 'Refunds', 'refundedCents'],
  ['paid', 'Paid out', 'payoutCents'],
] as const satisfies readonly (readonly [string, string, keyof PayoutMonth])[];

/** Payouts pending and paid, by month with fees, and the realised margin of each paid sale. */
export function PayoutsPage() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const orders = useQuery(ordersQuery(client, queryClient));
  const cards = useCardFacts();
  const slabs = useQuery(slabFactsQuery(client, queryClient)).data;
  const rows = useMemo(() => orders.data?.rows ?? [], [orders.data]);
  const costOf = useMemo(() => {
    const map = cards.data;
    return (id: string) => map?.get(id)?.cost;
  }, [cards.data]);
  const waiting = rows.filter((o) => isCounted(o) && o.svc_payout?.status === 'pending');
  // A sale refunded in full has nothing left to pay out: not a payout to wait for.
  const pending = waiting.filter((o) => !isRefundedAway(o));
  const refundedAway = waiting.length - pending.length;
  const paid = rows
    .filter((o) => isCounted(o) && o.svc_payout?.status === 'paid')
    .sort((a, b) => compareCodes(b.svc_payout?.paid_at ?? '', a.svc_payout?.paid_at ?? ''));
  const costOfOrder = (order: (typeof rows)[number]) => {
    const line = order.line_items?.[0];
    return line ? costOf(line.inventory_item_id) : undefined;
  };
  const months = useMemo(() => payoutsByMonth(rows, costOf), [rows, costOf]);
  // Sums of the amounts shown; an order with a figure not shown is left out and said to be.
  const undecided = rows.filter(
    (o) => o.cancelled_at === undefined || (isCounted(o) && o.svc_payout?.status === undefined),
  ).length;
  const sum = (list: typeof rows) => sumKnown(list.map((o) => orderMoney(o).netCents));
  const fees = sumKnown(rows.filter(isCounted).map((o) => orderMoney(o).feeCents));
  const pendingSum = sum(pending);
  const paidSum = sum(paid);
  const paidLedger = reconcile(paid);
  const pendingLedger = reconcile(pending);

  return (
    <section aria-labelledby="payouts-heading">
      <h1 id="payouts-heading">Payouts</h1>
      <QueryErrorBanner query={orders} of="orders" />
      {orders.isPending && <Loading label="Loading orders…" />}
      {orders.data && (
        <>
          <dl className="stats">
            <div>
              <Fact label="Pending, expected net">{money(pendingSum.cents)}</Fact>
              <dd className="muted">
                {countOf(pending.length, 'order')} · sale − fee − refunds
                {leftOutNote(pendingSum.unknown + undecided)}
                {refundedAway > 0 &&
                  ` · ${countOf(refundedAway, 'refunded order')} with nothing to pay out not counted`}
              </dd>
            </div>
            <div>
              <Fact label="Paid out">{money(paidSum.cents)}</Fact>
              <dd className="muted">
                {countOf(paid.length, 'order')}
                {leftOutNote(paidSum.unknown + undecided)}
              </dd>
            </div>
            <div>
              <Fact label="Platform fees">{money(fees.cents)}</Fact>
              <dd className="muted">
                on every order that pays out (none on cancelled or fully refunded ones)
                {leftOutNote(fees.unknown + undecided)}
              </dd>
            </div>
          </dl>
          <section className="panel" aria-labelledby="add-up-heading">
            <h2 id="add-up-heading">How the payouts add up</h2>
            <h3>Paid out</h3>
            <ReconcileNote sum={paidLedger} payoutWord="paid out" />
            <h3>Pending</h3>
            <ReconcileNote sum={pendingLedger} payoutWord="expected payout" />
          </section>
          <p>
            For your books:{' '}
            <Link to={paths.orders.to(new URLSearchParams({ status: 'any' }))}>
              export orders as CSV
            </Link>{' '}
            from the orders page (the filter you choose there).
          </p>
          <section className="panel" aria-labelledby="months-heading">
            <h2 id="months-heading">Paid by month</h2>
            <DataTable
              caption="Payouts paid, by month"
              scrollsSideways
              windowed={false}
              rows={months}
              getRowId={(m) => m.month}
              rowNote={(m) => <ReconcileNote sum={m} payoutWord="paid out" />}
              columns={[
                {
                  id: 'month',
                  header: 'Month',
                  rowHeader: true,
                  cell: (m) => formatUtcMonth(Date.parse(`${m.month}-01T00:00:00Z`), true),
                },
                {
                  id: 'payouts',
                  header: 'Payouts',
                  align: 'right',
                  cell: (m) =>
                    `${m.orders + m.incomplete}${m.incomplete > 0 ? ` (${m.incomplete} with amounts not shown)` : ''}`,
                },
                ...MONTH_SUMS.map(([id, header, cents]) => ({
                  id,
                  header,
                  align: 'right' as const,
                  cell: (m: PayoutMonth) => money(m[cents]),
                })),
                {
                  id: 'margin',
                  header: 'Margin over cost',
                  align: 'right',
                  cell: (m) =>
                    cards.data ? (
                      <>
                        {money(m.marginCents)}
                        {m.withoutCost > 0 && ` (${m.withoutCost} without a cost set)`}
                      </>
                    ) : (
                      '…'
                    ),
                },
              ]}
            />
          </section>
          <section className="panel" aria-labelledby="paid-heading">
            <h2 id="paid-heading">Latest paid sales</h2>
            <DataTable
              caption="The 20 latest payouts with their realised margin"
              scrollsSideways
              windowed={false}
              rows={paid.slice(0, 20)}
              getRowId={(order) => order.id}
              columns={[
                {
                  id: 'card',
                  header: 'Card',
                  cell: (order) => {
                    const line = order.line_items?.[0];
                    const slab = line?.product_id ? slabs?.get(line.product_id) : undefined;
                    const title = line?.title ?? slab?.title ?? '—';
                    return (
                      <SlabIdentity
                        title={title}
                        facts={{ ...slab, cert: slab?.cert ?? line?.sku }}
                      />
                    );
                  },
                },
                { id: 'order', header: 'Order', cell: (order) => <OrderLink order={order} /> },
                {
                  id: 'paid',
                  header: 'Paid',
                  cell: (order) => (
                    <RecordField
                      record={order}
                      path="svc_payout.paid_at"
                      value={order.svc_payout?.paid_at}
                    >
                      {(at) => <ShortDate iso={at} />}
                    </RecordField>
                  ),
                },
                {
                  id: 'payout',
                  header: 'Payout',
                  align: 'right',
                  cell: (order) => (
                    <FieldValue value={orderMoney(order).netCents}>{money}</FieldValue>
                  ),
                },
                {
                  id: 'cost',
                  header: 'Cost',
                  align: 'right',
                  cell: (order) => {
                    const cost = costOfOrder(order);
                    return cost === undefined ? 'cost not set' : <Money amount={cost} />;
                  },
                },
                {
                  id: 'margin',
                  header: 'Realised margin',
                  align: 'right',
                  cell: (order) => {
                    const cost = costOfOrder(order);
                    const net = orderMoney(order).netCents;
                    return cost === undefined || net === undefined
                      ? '—'
                      : money(net - (centsOf(cost) ?? 0));
                  },
                },
              ]}
            />
          </section>
        </>
      )}
    </section>
  );
}

export { PayoutsPage as Component };
