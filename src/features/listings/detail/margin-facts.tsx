import { formatMoney } from '../../../lib/format';
import { estimateMargin } from '../../../api/sales/margin';
import { formatDollars } from '../../../shared/money';
import { useMarginBasis } from '../../../api/sales/use-margin-basis';
import { Fact } from '../../../components/fact';

/** "Net if sold" (price less the learned fee) and "Margin over cost" (that less `cost`). */
export function MarginFacts({
  price,
  itemId,
  promoted,
}: {
  price: string | undefined;
  itemId: string | undefined;
  promoted: boolean | undefined;
}) {
  const basis = useMarginBasis();
  const cost = itemId === undefined ? undefined : basis.costs?.get(itemId)?.cost;
  if (price === undefined || basis.failed) return null;
  if (!basis.ready) {
    return (
      <>
        <dt>Net if sold</dt>
        <dd className="muted">Working out the fee rate…</dd>
      </>
    );
  }
  if (!basis.rate) {
    return (
      <>
        <dt>Net if sold</dt>
        <dd className="muted">Not known until an order of yours is paid out (the fee rate)</dd>
      </>
    );
  }
  const estimate = estimateMargin(price, basis.rate, cost, promoted);
  const rate = (basis.rate.basisPoints + (estimate.promotedFee ? 300 : 0)) / 100;
  return (
    <>
      <Fact label="Net if sold">
        {formatDollars(estimate.netCents)}{' '}
        <span className="muted">
          (fee {rate}%{estimate.promotedFee ? ', promoted' : ''}, learned from {basis.rate.from}{' '}
          paid orders{promoted === undefined ? '; promotion not shown' : ''})
        </span>
      </Fact>
      <Fact label="Margin over cost">
        {estimate.marginCents === undefined ? (
          <span className="muted">cost not set</span>
        ) : (
          <>
            <span className={estimate.marginCents < 0 ? 'below-cost' : undefined}>
              {formatDollars(estimate.marginCents)}
            </span>{' '}
            <span className="muted">
              (cost {formatMoney(cost)}; break-even at {formatDollars(estimate.breakEvenCents!)})
            </span>
          </>
        )}
      </Fact>
    </>
  );
}
