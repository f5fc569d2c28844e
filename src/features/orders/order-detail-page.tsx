import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { Order } from '../../client';
import { paths } from '../../shared/paths';
import { ErrorBanner } from '../../components/error-banner';
import { FieldValue } from '../../components/field-value';
import { Loading } from '../../components/states';
import { Fact } from '../../components/fact';
import { fieldOf, RecordField, unreadableAt } from '../../components/record-field';
import { StatusPill } from '../../components/status-pill';
import { useApiClient } from '../../api/api-context';
import { usePollInterval } from '../../api/live/live-context';
import { REQUIRED_SCOPES } from '../../api/required-scopes';
import { formatDateTime, formatMoney, humanize, relativeTime } from '../../lib/format';
import { OrderMarginFacts } from './order-margin-facts';
import { orderDetailQuery, orderStatusOf } from '../../api/orders/order-queries';
import { orderTimeline } from './order-timeline';
import { orderMoney } from '../../api/sales/order-money';
import { awaitsShipment } from '../../api/orders/shipment';

/** The order's amounts shown as they are, in the order the page says them. */
const AMOUNTS = [
  ['Subtotal', 'subtotal_price'],
  ['Tax', 'total_tax'],
  ['Total', 'total_price'],
  ['Refunded', 'total_refunded'],
] as const;

/** The order's codes shown in the seller's words. */
const CODES = [
  ['Channel', 'svc_sale_channel'],
  ['Delivery', 'svc_delivery_method'],
] as const;

/** One order: its lifecycle as a timeline, deadlines, tracking and the money. */
export function OrderDetailPage() {
  const { orderId = '' } = useParams();
  const client = useApiClient();
  const poll = usePollInterval(5000);
  const query = useQuery({
    ...orderDetailQuery(client, orderId),
    refetchInterval: (q) => (q.state.data && orderStatusOf(q.state.data) === 'open' ? poll : false),
  });
  if (query.isPending) return <Loading label="Loading the order…" />;
  if (query.isError) {
    return (
      <section>
        <h1>Order</h1>
        <ErrorBanner
          error={query.error}
          title="The order could not be loaded"
          scope={REQUIRED_SCOPES.orders}
        />
        <Link to={paths.orders.to()}>Back to orders</Link>
      </section>
    );
  }
  const order = query.data;
  const status = orderStatusOf(order);
  const line = order.line_items?.[0];
  const shipment = order.svc_seller_shipment;
  const payout = order.svc_payout;
  const { feeWaived } = orderMoney(order);
  const steps = orderTimeline(order);
  // The shipping banner needs `shipped_at` not set, the status and both deadlines: it is left out when one is not shown.
  const awaitingShipment = awaitsShipment(order) && status === 'open';
  const shipBy = shipment?.ship_by;
  const cancelAfter = shipment?.cancel_after;
  const field = <K extends keyof Order & string>(key: K) => fieldOf(order, key);
  const title = order.name ?? order.id;

  return (
    <section aria-labelledby="order-heading">
      <p className="breadcrumb">
        <Link to={paths.orders.to()}>Orders</Link> / {title}
      </p>
      <div className="page-head">
        <h1 id="order-heading">Order {title}</h1>
        {/* A mark when `cancelled_at` or `closed_at` is not known. */}
        <FieldValue
          value={status}
          unreadable={unreadableAt(order, 'cancelled_at') || unreadableAt(order, 'closed_at')}
        >
          {(shown) => <StatusPill value={shown} />}
        </FieldValue>
      </div>
      {order.cancelled_at && (
        <p className="banner banner-warn" role="note">
          Cancelled {formatDateTime(order.cancelled_at)}. Payment:{' '}
          <RecordField {...field('financial_status')}>{humanize}</RecordField>.
        </p>
      )}
      {awaitingShipment && shipBy && (
        <p className="banner banner-info" role="note">
          Ship the card to the hub by <strong>{formatDateTime(shipBy)}</strong> (
          {relativeTime(shipBy)}).
          {cancelAfter && <> Unshipped orders are cancelled after {formatDateTime(cancelAfter)}.</>}
        </p>
      )}
      <div className="detail-grid">
        <section className="panel" aria-labelledby="timeline-heading">
          <h2 id="timeline-heading">Timeline</h2>
          <ol className="timeline" aria-label="Order timeline">
            {steps.map((step) => (
              <li key={step.id} className={stepClass(step.done)}>
                <span className="timeline-label">{step.label}</span>{' '}
                <span className="timeline-state">
                  <FieldValue value={step.done} unreadable={step.unreadable}>
                    {(done) => (done ? (step.at ? formatDateTime(step.at) : 'done') : 'not yet')}
                  </FieldValue>
                </span>
                {step.detail && step.done && <span className="timeline-detail">{step.detail}</span>}
                {step.id === 'shipped_to_hub' && step.done === false && status === 'open' && (
                  <span className="timeline-detail">
                    Ship by {formatDateTime(shipBy)} · cancel after {formatDateTime(cancelAfter)}
                  </span>
                )}
              </li>
            ))}
          </ol>
          {shipment?.label_url && (
            <p>
              <a href={shipment.label_url} target="_blank" rel="noreferrer noopener">
                Shipping label
              </a>
            </p>
          )}
        </section>
        <section className="panel" aria-labelledby="money-heading">
          <h2 id="money-heading">Money</h2>
          <dl className="facts">
            {AMOUNTS.map(([term, key]) => (
              <RecordField key={key} label={term} {...field(key)}>
                {formatMoney}
              </RecordField>
            ))}
            <Fact label="Platform fee">
              {feeWaived ? (
                <>
                  None{' '}
                  <span className="muted">
                    {feeWaived === 'cancelled'
                      ? '(the order was cancelled)'
                      : '(refunded: nothing is paid out, so no fee is taken)'}
                  </span>
                </>
              ) : (
                <RecordField
                  record={order}
                  path="svc_payout.platform_fee"
                  value={payout?.platform_fee}
                >
                  {formatMoney}
                </RecordField>
              )}
            </Fact>
            <Fact label="Payout">
              <RecordField record={order} path="svc_payout.amount" value={payout?.amount}>
                {(amount) => (amount === null ? 'not yet' : formatMoney(amount))}
              </RecordField>{' '}
              (
              <RecordField record={order} path="svc_payout.status" value={payout?.status}>
                {humanize}
              </RecordField>
              {payout?.paid_at ? `, ${formatDateTime(payout.paid_at)}` : ''})
            </Fact>
            <OrderMarginFacts order={order} />
            <Fact label="Payment">
              <RecordField {...field('financial_status')}>{humanize}</RecordField>
            </Fact>
          </dl>
          <h2>Sale</h2>
          <dl className="facts">
            <RecordField label="Card" {...field('line_items')}>
              {() =>
                line ? <Link to={paths.listing.to(line.product_id)}>{line.title}</Link> : '—'
              }
            </RecordField>
            <RecordField label="Cert" {...field('line_items')}>
              {() =>
                line ? (
                  <Link to={paths.inventory.to(new URLSearchParams({ q: line.sku }))}>
                    {line.sku}
                  </Link>
                ) : (
                  '—'
                )
              }
            </RecordField>
            <RecordField label="Lot" {...field('line_items')}>
              {() => (line?.svc_is_lot ? `Yes, ${line.svc_inventory_item_ids.length} cards` : 'No')}
            </RecordField>
            <RecordField label="Order number" {...field('order_number')}>
              {String}
            </RecordField>
            {CODES.map(([term, key]) => (
              <RecordField key={key} label={term} {...field(key)}>
                {humanize}
              </RecordField>
            ))}
            <RecordField label="Test order" {...field('test')}>
              {(test) => (test ? 'Yes' : 'No')}
            </RecordField>
          </dl>
        </section>
      </div>
    </section>
  );
}

const stepClass = (done: boolean | undefined) =>
  done === undefined ? 'unknown' : done ? 'done' : 'pending';

export { OrderDetailPage as Component };
