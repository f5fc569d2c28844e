import type { Order } from '../../client';
import { FieldValue } from '../../components/field-value';
import { unreadableAt } from '../../components/record-field';
import { formatMoney } from '../../lib/format';
import { centsOf, formatDollars } from '../../shared/money';
import { orderMoney } from '../../api/sales/order-money';
import { useCardFacts } from '../../api/inventory/inventory-queries';
import { Fact } from '../../components/fact';

const NET_SOURCES = [
  'subtotal_price',
  'total_refunded',
  'svc_payout.platform_fee',
  'svc_payout.amount',
];

/** The payout (expected while pending) and the margin over inventory `cost`, realised once paid. */
export function OrderMarginFacts({ order }: { order: Order }) {
  const cards = useCardFacts();
  const net = orderMoney(order);
  const netCents = net.netCents;
  const itemId = order.line_items?.[0]?.inventory_item_id;
  const cost = itemId ? cards.data?.get(itemId)?.cost : undefined;
  // A cancelled order earns nothing; one that does not show whether it was is not figured.
  if (order.cancelled_at !== null) return null;
  // The net is figured from these: one sent in a form we could not read marks it so.
  const unreadable = NET_SOURCES.some((path) => unreadableAt(order, path));
  return (
    <>
      {!net.netIsPaid && (
        <>
          <FieldValue label="Expected payout" value={netCents} unreadable={unreadable}>
            {(cents) => (
              <>
                {formatDollars(cents)} <span className="muted">(sale − fee − refunds)</span>
              </>
            )}
          </FieldValue>
        </>
      )}
      {cards.data !== undefined && (
        <Fact label={net.netIsPaid ? 'Realised margin' : 'Expected margin'}>
          {cost === undefined ? (
            <span className="muted">cost not set</span>
          ) : (
            <FieldValue value={netCents} unreadable={unreadable}>
              {(cents) => (
                <>
                  <span className={cents < (centsOf(cost) ?? 0) ? 'below-cost' : undefined}>
                    {formatDollars(cents - (centsOf(cost) ?? 0))}
                  </span>{' '}
                  <span className="muted">(cost {formatMoney(cost)})</span>
                </>
              )}
            </FieldValue>
          )}
        </Fact>
      )}
    </>
  );
}
