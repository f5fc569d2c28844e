import type { Order } from '../../client';
import { FieldValue } from '../../components/field-value';
import { unreadableAt } from '../../components/record-field';
import { StatusPill } from '../../components/status-pill';
import { orderStatusOf } from '../../api/orders/order-queries';

/** The order's status as a pill, or a mark when `cancelled_at` and `closed_at` are not known. */
export function OrderStatus({ order }: { order: Order }) {
  const unreadable = unreadableAt(order, 'cancelled_at') || unreadableAt(order, 'closed_at');
  return (
    <FieldValue value={orderStatusOf(order)} unreadable={unreadable}>
      {(status) => <StatusPill value={status} />}
    </FieldValue>
  );
}
