import { useState } from 'react';
import type { Rule, RulesList } from '../../api/rules/rules-api';
import { useDeleteRule } from '../../api/rules/rules-mutations';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorBanner } from '../../components/error-banner';
import { ShortDate } from '../../components/figure';
import { RunHistory } from './run-history';

/** Delete a rule, asked first: it stops running; its runs stay in the history. */
export function DeleteRule({ rule }: { rule: Rule }) {
  const remove = useDeleteRule(rule.id);
  const [asking, setAsking] = useState(false);
  const name = rule.definition.name;
  return (
    <>
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        Delete rule
      </button>
      <ConfirmDialog
        open={asking}
        title={`Delete ${name}?`}
        confirmLabel="Delete rule"
        danger
        busy={remove.isPending}
        onConfirm={() => remove.mutate(undefined, { onSettled: () => setAsking(false) })}
        onCancel={() => setAsking(false)}
      >
        <p>
          It stops changing prices. The prices it set stay as they are, and its runs stay under
          “Deleted rules”.
        </p>
      </ConfirmDialog>
      <ErrorBanner error={remove.error} title="Not deleted" />
    </>
  );
}

/** The rules deleted lately, each with its history of runs to open. */
export function DeletedRules({ deleted }: { deleted: NonNullable<RulesList['deleted']> }) {
  const [open, setOpen] = useState<number | undefined>();
  const shown = deleted.find((rule) => rule.id === open);
  return (
    <section aria-labelledby="deleted-rules-heading">
      <h2 id="deleted-rules-heading">Deleted rules</h2>
      <ul className="deleted-rules">
        {deleted.map((rule) => (
          <li key={rule.id}>
            <button
              type="button"
              className="link-button"
              aria-expanded={open === rule.id}
              onClick={() => setOpen(open === rule.id ? undefined : rule.id)}
            >
              {rule.name}
            </button>{' '}
            {rule.deletedAt && (
              <span className="muted small">
                deleted <ShortDate iso={rule.deletedAt} time />
              </span>
            )}
          </li>
        ))}
      </ul>
      {shown && <RunHistory rule={shown} owner={false} />}
    </section>
  );
}
