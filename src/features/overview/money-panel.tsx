import { Link } from 'react-router';
import { FieldValue } from '../../components/field-value';
import { fieldOf, RecordField } from '../../components/record-field';
import { Loading } from '../../components/states';
import type { OrderFacts as Order } from '../../api/sales/sales-queries';
import { paths } from '../../shared/paths';
import { OrderLink } from '../../components/order-link';
import { countOf, leftOutNote } from '../../lib/format';
import { Figure, ShortDate } from '../../components/figure';
import { formatDollars } from '../../shared/money';
import { orderMoney } from '../../api/sales/order-money';
import { moneyFigures } from './overview-figures';
import { DataTable } from '../../components/data-table';
import { Fact } from '../../components/fact';

/** One figure: its name, its value and a note under it ("…" for both while it is not known). */
const Stat = ({ label, value, note }: { label: string; value?: string; note?: string }) => (
  <Fact label={label} note={note ?? '…'}>
    {value ?? '…'}
  </Fact>
);

/** Sold and paid figures; drawn at once with "…" so nothing moves when the orders arrive. */
export function MoneyPanel({ rows, now }: { rows: readonly Order[] | undefined; now: number }) {
  const figures = rows && moneyFigures(rows, now);
  const stat = (figure: { cents: number; count: number; unknown: number } | undefined, note = '') =>
    figure && {
      value: formatDollars(figure.cents),
      note: countOf(figure.count, 'order') + note + leftOutNote(figure.unknown),
    };
  return (
    <section className="panel" aria-labelledby="money-heading" aria-busy={!figures || undefined}>
      <h2 id="money-heading">Money</h2>
      <h3 className="stats-title">Sold, net of fees and refunds</h3>
      <dl className="stats">
        <Stat label="Today (UTC)" {...stat(figures?.today)} />
        <Stat label="Last 7 days" {...stat(figures?.week)} />
        <Stat label="Last 30 days" {...stat(figures?.month)} />
      </dl>
      <h3 className="stats-title">Payouts</h3>
      <dl className="stats stats-two">
        <Stat
          label="Pending, expected net"
          {...stat(figures?.pending, ' · sale − fee − refunds')}
        />
        <Stat label="Paid in the last 30 days" {...stat(figures?.paid30)} />
      </dl>
      {/* What follows the figures comes with them: nothing drawn above moves when it does. */}
      {!figures && <Loading label="Loading orders…" />}
      {figures && figures.nextPayouts.length > 0 && (
        <DataTable
          caption="Next payouts (oldest sales first)"
          showCaption
          windowed={false}
          rows={figures.nextPayouts}
          getRowId={(order) => order.id}
          columns={[
            { id: 'order', header: 'Order', cell: (order) => <OrderLink order={order} /> },
            {
              id: 'sold',
              header: 'Sold',
              cell: (order) => (
                <RecordField {...fieldOf(order, 'svc_sold_at')}>
                  {(at) => <ShortDate iso={at} />}
                </RecordField>
              ),
            },
            {
              id: 'net',
              header: 'Expected net',
              align: 'right',
              cell: (order) => (
                <FieldValue value={orderMoney(order).netCents}>
                  {(cents) => <Figure kind="money">{formatDollars(cents)}</Figure>}
                </FieldValue>
              ),
            },
          ]}
        />
      )}
      {figures && figures.refundedAway > 0 && (
        <p className="muted">
          {countOf(figures.refundedAway, 'order')} refunded in full{' '}
          {figures.refundedAway === 1 ? 'has' : 'have'} nothing to pay out and{' '}
          {figures.refundedAway === 1 ? 'is' : 'are'} not listed.
        </p>
      )}
      {figures && (
        <p>
          <Link to={paths.payouts.to()}>All payouts</Link> ·{' '}
          <Link to={paths.insights.to()}>Sales over time</Link>
        </p>
      )}
    </section>
  );
}
