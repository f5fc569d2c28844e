import { Link } from 'react-router';
import type { Order } from '../../client';
import { FieldValue } from '../../components/field-value';
import { Figure } from '../../components/figure';
import { unreadableAt } from '../../components/record-field';
import { StatusPill } from '../../components/status-pill';
import { paths } from '../../lib/paths';
import { orderStatusOf } from './order-queries';

/**
 * The order's link by its code; an order that does not show its code is linked by its id (what
 * the order page reads it by), with the code marked as not shown or not readable.
 */
export function OrderLink({ order }: { order: Order }) {
  if (order.name !== undefined)
    return (
      <Link to={paths.order.to(order.id)}>
        <Figure kind="code">{order.name}</Figure>
      </Link>
    );
  return (
    <>
      <Link to={paths.order.to(order.id)}>{order.id}</Link>{' '}
      <span className="muted">
        (code:{' '}
        <FieldValue value={undefined} unreadable={unreadableAt(order, 'name')}>
          {String}
        </FieldValue>
        )
      </span>
    </>
  );
}

/**
 * The order's status (open, closed, cancelled) as a pill, or a mark when the order does not show
 * (or we could not read) the `cancelled_at` and `closed_at` it is told by.
 */
export function OrderStatus({ order }: { order: Order }) {
  const unreadable = unreadableAt(order, 'cancelled_at') || unreadableAt(order, 'closed_at');
  return (
    <FieldValue value={orderStatusOf(order)} unreadable={unreadable}>
      {(status) => <StatusPill value={status} />}
    </FieldValue>
  );
}
