import { ConfirmDialog } from '../../../components/confirm-dialog';
import { countOf } from '../../../lib/format';
import { ASK_OVER, centsMoved, priceJump, priceMoveLines } from '../../../lib/price-asks';
import { centsOf } from '../../../shared/money';
import type { Plan } from './logic/diff';

/** What applying a plan does, in a seller's words, and whether it is large enough to ask first. */
export function planAsk(plan: Plan, belowCost = 0) {
  const moves = [];
  const outliers: string[] = [];
  let otherTerms = 0;
  let offSale = 0;
  for (const item of plan.items) {
    const price = item.changes.find((change) => change.field === 'price');
    const before = centsOf(price?.before);
    const after = centsOf(price?.after);
    if (price && before !== undefined && after !== undefined) {
      moves.push({ before, after });
      const jump = priceJump(price.before, price.after);
      if (jump) outliers.push(`${item.title}: ${jump}`);
    }
    if (item.changes.some((change) => change.field !== 'price' && !change.implied)) otherTerms++;
    if (item.writes.some((write) => write.method === 'DELETE')) offSale++;
  }
  const lines = priceMoveLines(moves);
  if (otherTerms > 0) lines.push(`Change other terms of ${countOf(otherTerms, 'listing')}`);
  if (offSale > 0) lines.push(`Take ${countOf(offSale, 'listing')} off sale`);
  if (belowCost > 0) lines.push(`Sell ${countOf(belowCost, 'listing')} below cost, as you chose`);
  const large = plan.writes > ASK_OVER.changes || centsMoved(moves) > ASK_OVER.cents;
  return { lines, outliers, ask: large || outliers.length > 0 };
}

/** The one question before a large apply, or one with prices far from the last: count and money. */
export function ApplyAskDialog({
  plan,
  ask,
  open,
  onConfirm,
  onCancel,
}: {
  plan: Plan;
  ask: ReturnType<typeof planAsk>;
  open: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const changes = countOf(plan.writes, 'change');
  return (
    <ConfirmDialog
      open={open}
      title={`Apply ${changes}?`}
      confirmLabel={`Yes, apply ${changes}`}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <ul>
        {ask.lines.map((line) => (
          <li key={line}>{line}.</li>
        ))}
      </ul>
      {ask.outliers.length > 0 && (
        <>
          <p>
            <strong>{countOf(ask.outliers.length, 'price')} far from the price now:</strong>
          </p>
          <ul aria-label="Prices far from the price now">
            {ask.outliers.slice(0, 10).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          {ask.outliers.length > 10 && <p>and {ask.outliers.length - 10} more.</p>}
        </>
      )}
    </ConfirmDialog>
  );
}
