import { Link } from 'react-router';
import { FieldValue } from './field-value';
import { Figure } from './figure';
import { fieldOf, RecordField, unreadableAt, type MarkedRecord } from './record-field';
import { paths } from '../shared/paths';

/** What an order's link needs: its id, and its code when the API showed it. */
export interface LinkedOrder extends MarkedRecord {
  id: string;
  name?: string | undefined;
}

/** The order's link by its code, or by its id (code marked) when the code is not shown. */
export function OrderLink({ order }: { order: LinkedOrder }) {
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

/** The title of the order's (first) card, or a mark when its line items were not shown. */
export function OrderCardTitle({
  order,
}: {
  order: MarkedRecord & { line_items?: readonly { title?: string | undefined }[] | undefined };
}) {
  return (
    <RecordField {...fieldOf(order, 'line_items')}>{(items) => items[0]?.title ?? '—'}</RecordField>
  );
}
