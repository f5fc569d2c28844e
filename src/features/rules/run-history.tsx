import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useApiClient } from '../../api/api-context';
import type { RuleRun } from '../../api/rules/rules-api';
import { ruleRunQuery, ruleRunsQuery } from '../../api/rules/rules-queries';
import { useRefreshAfterRun, useUndoRun } from '../../api/rules/rules-mutations';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorBanner } from '../../components/error-banner';
import { ShortDate } from '../../components/figure';
import { Loading } from '../../components/states';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { countOf, formatMoney } from '../../lib/format';
import { PlanTable } from './plan-table';
import { reasonWords, runStatusWords, triggerWords } from './rule-words';

/** What a run's row offers: show its listings, and undo it (an owner, a run that changed some). */
interface RunActions {
  runs: readonly RuleRun[];
  owner: boolean;
  open: number | undefined;
  undoing: boolean;
  onToggle(id: number): void;
  onUndo(run: RuleRun): void;
}

const undoable = (run: RuleRun, owner: boolean) =>
  owner &&
  run.trigger !== 'undo' &&
  run.undoneBy === null &&
  (run.status === 'done' || run.status === 'stopped') &&
  run.counts.changed > 0;

function columnsOf(actions: RunActions): readonly Column<RuleRun>[] {
  return [
    { id: 'when', header: 'When', cell: (run) => <ShortDate iso={run.startedAt} time /> },
    {
      id: 'run',
      header: 'Run',
      cell: (run) => (
        <>
          {triggerWords(run)}
          {run.by && <div className="muted small">by {run.by}</div>}
        </>
      ),
    },
    { id: 'changed', header: 'Changed', align: 'right', cell: (run) => run.counts.changed },
    { id: 'skipped', header: 'Skipped', align: 'right', cell: (run) => run.counts.skipped },
    { id: 'failed', header: 'Failed', align: 'right', cell: (run) => run.counts.failed },
    {
      id: 'status',
      header: 'Status',
      cell: (run) => (
        <>
          {runStatusWords(run, actions.runs)}
          {run.note && <div className="small">{run.note}</div>}
        </>
      ),
    },
    {
      id: 'actions',
      header: 'Actions',
      headerHidden: true,
      labelled: false,
      cell: (run) => {
        const when = new Date(run.startedAt).toLocaleString();
        const open = actions.open === run.id;
        return (
          <div className="run-actions">
            <button
              type="button"
              aria-expanded={open}
              onClick={() => actions.onToggle(run.id)}
              aria-label={`${open ? 'Hide' : 'Show'} the run of ${when}`}
            >
              {open ? 'Hide' : 'Show'}
            </button>
            {undoable(run, actions.owner) && (
              <button
                type="button"
                onClick={() => actions.onUndo(run)}
                disabled={actions.undoing}
                aria-label={`Undo the run of ${when}`}
              >
                Undo
              </button>
            )}
          </div>
        );
      },
    },
  ];
}

/** A rule's runs, newest first: what each changed, skipped and failed; one opened to its listings. */
export function RunHistory({
  rule,
  owner,
}: {
  rule: { id: number; name: string };
  owner: boolean;
}) {
  const client = useApiClient();
  const runs = useQuery(ruleRunsQuery(client, rule.id));
  const [open, setOpen] = useState<number | undefined>();
  const [asked, setAsked] = useState<RuleRun | null>(null);
  const headingId = useId();
  const undo = useUndoRun();
  const refresh = useRefreshAfterRun();
  const unfinished = runs.data?.runs.some((r) => r.status === 'running' || r.status === 'paused');
  const was = useRef(unfinished);
  useEffect(() => {
    // A run that just ended changed listings on the server: read them again.
    if (was.current && !unfinished) refresh();
    was.current = unfinished;
  }, [unfinished, refresh]);
  const { mutate, isPending } = undo;
  const list = runs.data?.runs;
  const columns = useMemo(
    () =>
      columnsOf({
        runs: list ?? [],
        owner,
        open,
        undoing: isPending,
        onToggle: (id) => setOpen((shown) => (shown === id ? undefined : id)),
        onUndo: setAsked,
      }),
    [list, owner, open, isPending],
  );
  const undoAsked = (run: RuleRun) =>
    mutate(run.id, {
      onSuccess: (answer) => setOpen(answer.run.id),
      onSettled: () => setAsked(null),
    });
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>History</h3>
      <ErrorBanner error={undo.error} title="Not undone" />
      <ConfirmDialog
        open={asked !== null}
        title={asked ? undoQuestion(asked) : ''}
        confirmLabel="Undo the run"
        busy={isPending}
        onConfirm={() => asked && undoAsked(asked)}
        onCancel={() => setAsked(null)}
      >
        <p>
          Each listing changed since the run by someone else is left as it is now. Every change
          shows in the Activity log.
        </p>
      </ConfirmDialog>
      {runs.data && runs.data.runs.length === 0 && <p>This rule has not run yet.</p>}
      {runs.data && runs.data.runs.length > 0 && (
        <DataTable
          caption={`Runs of ${rule.name}`}
          rows={runs.data.runs}
          columns={columns}
          getRowId={(run) => String(run.id)}
          windowed={false}
          className="runs-table"
        />
      )}
      {open !== undefined && <RunItems runId={open} />}
    </section>
  );
}

/** "Put back 92 prices, $1,204.50 in all": the count and the money of an undo. */
function undoQuestion({ counts, markdown }: RuleRun): string {
  const count = counts.changed;
  return markdown !== '0.00'
    ? `Put back ${countOf(count, 'price')}, ${formatMoney(markdown)} in all?`
    : `Put back ${countOf(count, 'listing')} as they were?`;
}

/** The listings of one run, each with what came of it. */
function RunItems({ runId }: { runId: number }) {
  const client = useApiClient();
  const detail = useQuery(ruleRunQuery(client, runId));
  if (detail.isPending) return <Loading label="Loading the run…" />;
  if (detail.error) return <ErrorBanner error={detail.error} title="The run could not be read" />;
  const words = {
    pending: 'To send',
    done: 'Changed',
    failed: 'Failed',
    skipped: 'Left alone',
  } as const;
  return (
    <PlanTable
      caption={`${triggerWords(detail.data.run)} of ${new Date(detail.data.run.startedAt).toLocaleString()}`}
      rows={detail.data.items.map((item) => ({
        ...item,
        outcome:
          item.state === 'done' || item.state === 'pending'
            ? words[item.state]
            : `${words[item.state]}: ${reasonWords(item.reason)}`,
      }))}
    />
  );
}
