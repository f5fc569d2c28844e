import { Money } from '../../components/figure';
import { formatCents } from '../../shared/money';
import { owedCents, type Reconciliation } from '../../api/sales/reconcile';
import { countOf } from '../../lib/format';

const money = (cents: number) => <Money amount={formatCents(cents)} />;

/** A money row's sum spelled out, with each cause of a gap from what was paid. */
export function ReconcileNote({ sum, payoutWord }: { sum: Reconciliation; payoutWord: string }) {
  const causes = [
    sum.refundedAfterPayoutCents !== 0 && (
      <li key="after">
        {money(sum.refundedAfterPayoutCents)} refunded after this payout was released: it is not
        taken off the payout or the margin here, and the marketplace does not say whether a later
        payout takes it back
      </li>
    ),
    sum.beyondSaleCents !== 0 && (
      <li key="beyond">
        {money(sum.beyondSaleCents)} of refunds beyond what the sale earned (the buyer’s tax is
        refunded too; a payout never goes below $0.00)
      </li>
    ),
    sum.adjustmentCents !== 0 && (
      <li key="other">{money(sum.adjustmentCents)} of adjustments by the marketplace</li>
    ),
  ].filter(Boolean);
  return (
    <div className="reconcile-note">
      <p>
        Sales {money(sum.salesCents)} − fees {money(sum.feesCents)} − refunds{' '}
        {money(sum.refundedCents)} = {money(owedCents(sum))}
        {causes.length === 0 ? (
          <>
            , the {payoutWord} {money(sum.payoutCents)}.
          </>
        ) : (
          <>
            ; the {payoutWord} {money(sum.payoutCents)} differs by{' '}
            {money(sum.payoutCents - owedCents(sum))}:
          </>
        )}
        {sum.incomplete > 0 &&
          ` (${countOf(sum.incomplete, 'order')} with an amount not shown left out)`}
      </p>
      {causes.length > 0 && <ul>{causes}</ul>}
    </div>
  );
}
