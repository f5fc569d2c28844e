import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { paths } from '../../lib/paths';
import { ErrorBanner } from '../../components/error-banner';
import { FieldValue } from '../../components/field-value';
import { Loading } from '../../components/states';
import { StatusPill } from '../../components/status-pill';
import { useApiClient } from '../../lib/api-context';
import { usePollInterval } from '../../lib/live/live-context';
import { REQUIRED_SCOPES } from '../../lib/required-scopes';
import { formatDateTime, formatMoney, humanize, relativeTime } from '../../lib/format';
import { OrderMarginFacts } from './order-margin-facts';
import { orderDetailQuery, orderStatusOf } from './order-queries';
import { orderTimeline } from './order-timeline';

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
  const item = order.line_items[0];
  const shipment = order.svc_seller_shipment;
  const steps = orderTimeline(order);
  const awaitingShipment = shipment.status === 'pending_shipment' && status === 'open';

  return (
    <section aria-labelledby="order-heading">
      <p className="breadcrumb">
        <Link to={paths.orders.to()}>Orders</Link> / {order.name}
      </p>
      <div className="page-head">
        <h1 id="order-heading">Order {order.name}</h1>
        <StatusPill value={status} />
      </div>
      {order.cancelled_at && (
        <p className="banner banner-warn" role="note">
          Cancelled {formatDateTime(order.cancelled_at)}. Financial status:{' '}
          {humanize(order.financial_status)}.
        </p>
      )}
      {awaitingShipment && (
        <p className="banner banner-info" role="note">
          Ship the card to the hub by <strong>{formatDateTime(shipment.ship_by)}</strong> (
          {relativeTime(shipment.ship_by)}). Unshipped orders are cancelled after{' '}
          {formatDateTime(shipment.cancel_after)}.
        </p>
      )}
      <div className="detail-grid">
        <section className="panel" aria-labelledby="timeline-heading">
          <h2 id="timeline-heading">Timeline</h2>
          <ol className="timeline" aria-label="Order timeline">
            {steps.map((step) => (
              <li key={step.id} className={step.done ? 'done' : 'pending'}>
                <span className="timeline-label">{step.label}</span>{' '}
                <span className="timeline-state">
                  {step.done ? (step.at ? formatDateTime(step.at) : 'done') : 'not yet'}
                </span>
                {step.detail && step.done && <span className="timeline-detail">{step.detail}</span>}
                {step.id === 'shipped_to_hub' && !step.done && status === 'open' && (
                  <span className="timeline-detail">
                    Ship by {formatDateTime(shipment.ship_by)} · cancel after{' '}
                    {formatDateTime(shipment.cancel_after)}
                  </span>
                )}
              </li>
            ))}
          </ol>
          {shipment.label_url && (
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
            <dt>Subtotal</dt>
            <dd>{formatMoney(order.subtotal_price)}</dd>
            <dt>Tax</dt>
            <dd>
              <FieldValue value={order.total_tax}>{formatMoney}</FieldValue>
            </dd>
            <dt>Total</dt>
            <dd>{formatMoney(order.total_price)}</dd>
            <dt>Refunded</dt>
            <dd>{formatMoney(order.total_refunded)}</dd>
            <dt>Platform fee</dt>
            <dd>{formatMoney(order.svc_payout.platform_fee)}</dd>
            <dt>Payout</dt>
            <dd>
              {order.svc_payout.amount ? formatMoney(order.svc_payout.amount) : 'not yet'} (
              {humanize(order.svc_payout.status)}
              {order.svc_payout.paid_at ? `, ${formatDateTime(order.svc_payout.paid_at)}` : ''})
            </dd>
            <OrderMarginFacts order={order} />
            <dt>Financial status</dt>
            <dd>{humanize(order.financial_status)}</dd>
          </dl>
          <h2>Sale</h2>
          <dl className="facts">
            <dt>Card</dt>
            <dd>{item ? <Link to={paths.listing.to(item.product_id)}>{item.title}</Link> : '—'}</dd>
            <dt>Cert</dt>
            <dd>
              {item ? (
                <Link to={paths.inventory.to(new URLSearchParams({ q: item.sku }))}>
                  {item.sku}
                </Link>
              ) : (
                '—'
              )}
            </dd>
            <dt>Lot</dt>
            <dd>{item?.svc_is_lot ? `Yes, ${item.svc_inventory_item_ids.length} cards` : 'No'}</dd>
            <dt>Order number</dt>
            <dd>{order.order_number}</dd>
            <dt>Channel</dt>
            <dd>{humanize(order.svc_sale_channel)}</dd>
            <dt>Delivery</dt>
            <dd>{humanize(order.svc_delivery_method)}</dd>
            <dt>Test order</dt>
            <dd>{order.test ? 'Yes' : 'No'}</dd>
          </dl>
        </section>
      </div>
    </section>
  );
}

export { OrderDetailPage as Component };
