import { useState } from 'react';
import {
  PlanChangedError,
  type NewPlan,
  type PlanChange,
  type Preview,
  type Rule,
} from '../../api/rules/rules-api';
import { useRunRule } from '../../api/rules/rules-mutations';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorBanner } from '../../components/error-banner';
import { countOf, formatMoney } from '../../lib/format';
import { fieldsText } from './rule-words';

/** A plan the seller is asked to run: the one previewed, or the new one after a change. */
interface Ask {
  plan: string;
  changes: number;
  markdown: string;
  changed?: NewPlan['changed'];
}

/** "Lower 92 prices by $1,204.50 in all": the count and the money of a plan, as a question. */
export function planQuestion({ changes, markdown }: Pick<Ask, 'changes' | 'markdown'>) {
  if (changes === 0) return 'Nothing to change: run anyway?';
  return markdown !== '0.00'
    ? `Lower ${countOf(changes, 'price')} by ${formatMoney(markdown)} in all?`
    : `Change ${countOf(changes, 'listing')}?`;
}

function changeWords({ change, shown, now }: PlanChange): string {
  if (change === 'added')
    return `now in the plan: ${fieldsText(now!.before)} to ${fieldsText(now!.after)}`;
  if (change === 'removed')
    return `no longer changed (it was to go to ${fieldsText(shown!.after)})`;
  return `now ${fieldsText(now!.before)} to ${fieldsText(now!.after)}, not ${fieldsText(shown!.before)} to ${fieldsText(shown!.after)}`;
}

/** What changed since the preview, listing by listing. */
function Changed({ changed }: { changed: NonNullable<Ask['changed']> }) {
  if (!changed.known) return <p>The preview is no longer known here; this is the plan now.</p>;
  const { added, removed, changed: other, listings } = changed;
  const more = added + removed + other - listings.length;
  return (
    <>
      <p>
        Since the preview:{' '}
        {[
          added && `${countOf(added, 'listing')} added`,
          removed && `${countOf(removed, 'listing')} left out`,
          other && `${countOf(other, 'listing')} with another price`,
        ]
          .filter(Boolean)
          .join(', ')}
        .
      </p>
      <ul className="plan-changes">
        {listings.map((line) => (
          <li key={line.listingId}>
            {line.title}: {changeWords(line)}
          </li>
        ))}
        {more > 0 && <li>and {countOf(more, 'more listing')}</li>}
      </ul>
    </>
  );
}

/** Run now: asks with the plan previewed and sends only it; if the listings changed, asks again. */
export function RunNow({
  rule,
  previewPlan,
  onStarted,
  onPlanChanged,
}: {
  rule: Rule;
  /** The plan on screen, else one read now (and shown) before asking. */
  previewPlan(): Promise<Preview | undefined>;
  onStarted(): void;
  /** The listings changed since the preview: the page shows the new plan. */
  onPlanChanged(): void;
}) {
  const run = useRunRule(rule.id);
  const [ask, setAsk] = useState<Ask | null>(null);
  const [reading, setReading] = useState(false);
  const start = async () => {
    setReading(true);
    try {
      const preview = await previewPlan();
      if (preview) setAsk(preview);
    } finally {
      setReading(false);
    }
  };
  const confirm = (plan: string) =>
    run.mutate(plan, {
      onSuccess: () => {
        setAsk(null);
        onStarted();
      },
      onError: (error) => {
        if (!(error instanceof PlanChangedError)) return setAsk(null);
        setAsk(error.plan);
        onPlanChanged();
      },
    });
  const title = !ask?.changed
    ? planQuestion(ask ?? { changes: 0, markdown: '0.00' })
    : ask.changes === 0
      ? 'Run the new plan? It changes nothing.'
      : `Run the new plan? ${planQuestion(ask)}`;
  return (
    <>
      <button
        type="button"
        className="primary"
        disabled={run.isPending || reading}
        onClick={() => void start()}
      >
        {run.isPending ? 'Starting…' : 'Run now'}
      </button>
      <ConfirmDialog
        open={ask !== null}
        title={title}
        confirmLabel={ask?.changed ? 'Run the new plan' : 'Run now'}
        busy={run.isPending}
        onConfirm={() => ask && confirm(ask.plan)}
        onCancel={() => setAsk(null)}
      >
        {ask?.changed && (
          <>
            <p>Your listings changed since the preview, so nothing was sent.</p>
            <Changed changed={ask.changed} />
          </>
        )}
        {ask !== null && ask.changes > 0 && (
          <p>
            {rule.definition.name} sends {countOf(ask?.changes ?? 0, 'change')} now, each shown in
            the Activity log; the run can be undone.
          </p>
        )}
      </ConfirmDialog>
      {!(run.error instanceof PlanChangedError) && (
        <ErrorBanner error={run.error} title="The rule did not run" />
      )}
    </>
  );
}
