import { useQuery } from '@tanstack/react-query';
import type { Order } from '../../client';
import { useApiClient } from '../../lib/api-context';
import { formatMoney } from '../../lib/format';
import { fromCents, toCents } from '../../lib/sales/money';
import { orderMoney } from '../../lib/sales/order-money';
import { costsQuery } from '../../lib/sales/sales-queries';

const money = (cents: number) => formatMoney(fromCents(cents));

/**
 * The payout's figure while it is pending (expected: sale − fee − refunds) and the margin over
 * the card's inventory `cost`: realised once paid (payout − cost), expected before.
 */
export function OrderMarginFacts({ order }: { order: Order }) {
  const client = useApiClient();
  const cards = useQuery(costsQuery(client));
  const net = orderMoney(order);
  const itemId = order.line_items[0]?.inventory_item_id;
  const cost = itemId ? cards.data?.get(itemId)?.cost : undefined;
  if (order.cancelled_at !== null) return null;
  return (
    <>
      {!net.netIsPaid && (
        <>
          <dt>Expected payout</dt>
          <dd>
            {money(net.netCents)} <span className="muted">(sale − fee − refunds)</span>
          </dd>
        </>
      )}
      {cards.isSuccess && (
        <>
          <dt>{net.netIsPaid ? 'Realised margin' : 'Expected margin'}</dt>
          <dd>
            {cost === undefined ? (
              <span className="muted">cost not known</span>
            ) : (
              <>
                <span className={net.netCents < toCents(cost) ? 'below-cost' : undefined}>
                  {money(net.netCents - toCents(cost))}
                </span>{' '}
                <span className="muted">(cost {formatMoney(cost)})</span>
              </>
            )}
          </dd>
        </>
      )}
    </>
  );
}
