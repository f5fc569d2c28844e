import { Link } from '../../components/link';
import type { OrderFacts as Order } from '../../lib/sales/sales-queries';
import { paths } from '../../lib/paths';
import { formatDateTime, formatMoney } from '../../lib/format';
import { fromCents } from '../../lib/sales/money';
import { orderMoney } from '../../lib/sales/order-money';
import { moneyFigures } from './overview-figures';

const money = (cents: number) => formatMoney(fromCents(cents));
const orders = (n: number) => `${n} ${n === 1 ? 'order' : 'orders'}`;

/** Sold today / 7 days / 30 days net of fees, and payouts pending and paid with the next ones. */
export function MoneyPanel({ rows, now }: { rows: readonly Order[]; now: number }) {
  const figures = moneyFigures(rows, now);
  return (
    <section className="panel" aria-labelledby="money-heading">
      <h2 id="money-heading">Money</h2>
      <h3 className="stats-title">Sold, net of fees and refunds</h3>
      <dl className="stats">
        <div>
          <dt>Today (UTC)</dt>
          <dd>{money(figures.today.cents)}</dd>
          <dd className="muted">{orders(figures.today.count)}</dd>
        </div>
        <div>
          <dt>Last 7 days</dt>
          <dd>{money(figures.week.cents)}</dd>
          <dd className="muted">{orders(figures.week.count)}</dd>
        </div>
        <div>
          <dt>Last 30 days</dt>
          <dd>{money(figures.month.cents)}</dd>
          <dd className="muted">{orders(figures.month.count)}</dd>
        </div>
      </dl>
      <h3 className="stats-title">Payouts</h3>
      <dl className="stats stats-two">
        <div>
          <dt>Pending, expected net</dt>
          <dd>{money(figures.pending.cents)}</dd>
          <dd className="muted">{orders(figures.pending.count)} · sale − fee − refunds</dd>
        </div>
        <div>
          <dt>Paid in the last 30 days</dt>
          <dd>{money(figures.paid30.cents)}</dd>
          <dd className="muted">{orders(figures.paid30.count)}</dd>
        </div>
      </dl>
      {figures.nextPayouts.length > 0 && (
        <table className="simple-table">
          <caption>Next payouts (oldest sales first)</caption>
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Sold</th>
              <th scope="col" className="num">
                Expected net
              </th>
            </tr>
          </thead>
          <tbody>
            {figures.nextPayouts.map((order) => (
              <tr key={order.id}>
                <td>
                  <Link to={paths.order.to(order.id)}>{order.name}</Link>
                </td>
                <td>{formatDateTime(order.svc_sold_at)}</td>
                <td className="num">{money(orderMoney(order).netCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        <Link to={paths.payouts.to()}>All payouts</Link> ·{' '}
        <Link to={paths.insights.to()}>Sales over time</Link>
      </p>
    </section>
  );
}
