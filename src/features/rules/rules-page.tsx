import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useApiClient } from '../../api/api-context';
import { RulesUnavailable, type Rule, type RuleRun } from '../../api/rules/rules-api';
import {
  rulePreviewQuery,
  ruleRunQuery,
  ruleRunsQuery,
  rulesListQuery,
} from '../../api/rules/rules-queries';
import {
  useRefreshAfterRun,
  useRunRule,
  useUndoRun,
  useUpdateRule,
} from '../../api/rules/rules-mutations';
import { ErrorBanner } from '../../components/error-banner';
import { EmptyState, Loading } from '../../components/states';
import { Money, ShortDate } from '../../components/figure';
import { countOf } from '../../lib/format';
import { paths } from '../../shared/paths';
import { NewRuleForm } from './rule-form';
import {
  actionSummary,
  fieldsText,
  floorSummary,
  reasonWords,
  runStatusWords,
  scopeSummary,
  triggerWords,
} from './rule-words';
import './rules.css';

/**
 * The seller's pricing rules: each rule's scope, action and floor; a preview of what it would
 * change and why; run now; each run's history with what it changed, skipped and why; undo a run.
 */
export function RulesPage() {
  const client = useApiClient();
  const [params, setParams] = useSearchParams();
  const list = useQuery(rulesListQuery(client));
  const [creating, setCreating] = useState(false);
  const selected = Number(params.get('rule')) || undefined;
  const select = (id: number | undefined) =>
    setParams(id === undefined ? {} : { rule: String(id) }, { replace: false });

  if (list.isPending) return <Loading label="Loading the rules…" />;
  if (list.error instanceof RulesUnavailable) {
    return (
      <section aria-labelledby="rules-heading">
        <h1 id="rules-heading">Pricing rules</h1>
        <EmptyState title="This server runs no pricing rules">
          Rules run on the dashboard’s own server with its activity log turned on.
        </EmptyState>
      </section>
    );
  }
  if (list.error) return <ErrorBanner error={list.error} onRetry={() => void list.refetch()} />;
  const { rules, role, pause } = list.data;
  const owner = role === 'owner';
  const rule = rules.find((r) => r.id === selected);

  return (
    <section aria-labelledby="rules-heading" className="rules-page">
      <div className="page-head">
        <h1 id="rules-heading">Pricing rules</h1>
        <div className="page-actions">
          {owner && (
            <button
              type="button"
              onClick={() => setCreating((open) => !open)}
              aria-expanded={creating}
            >
              {creating ? 'Close the new rule' : 'New rule'}
            </button>
          )}
        </div>
      </div>
      <p className="muted">
        Rules change prices by themselves, never below their floor, and leave alone what a person
        just edited. Every change shows in the Activity log and a run can be undone.
        {!owner &&
          ` You are signed in as ${role === 'editor' ? 'an editor: you can preview' : 'a viewer: you can look'}; an owner makes and runs rules.`}
      </p>
      {pause && (
        <p className="rules-pause" role="status">
          {pause}
        </p>
      )}
      {creating && owner && (
        <NewRuleForm
          onCreated={(created) => {
            setCreating(false);
            select(created.id);
          }}
        />
      )}
      {rules.length === 0 ? (
        <EmptyState title="No rules yet">
          {owner
            ? 'Make one with “New rule”, from a saved view of your listings.'
            : 'An owner makes rules.'}
        </EmptyState>
      ) : (
        <div className="table-scroll">
          <table className="rules-table">
            <caption className="visually-hidden">Your pricing rules</caption>
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">What it does</th>
                <th scope="col">Last run</th>
                <th scope="col">Runs by itself</th>
              </tr>
            </thead>
            <tbody>
              {rules.map((r) => (
                <RuleRow
                  key={r.id}
                  rule={r}
                  owner={owner}
                  selected={r.id === selected}
                  onSelect={() => select(r.id)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {rule && <RulePanel key={rule.id} rule={rule} role={role} />}
    </section>
  );
}

function RuleRow({
  rule,
  owner,
  selected,
  onSelect,
}: {
  rule: Rule;
  owner: boolean;
  selected: boolean;
  onSelect(): void;
}) {
  const update = useUpdateRule(rule.id);
  // The seller's choice, set in the click itself: a controlled box shows it at once, not the old
  // state until the mutation's pending state renders (React puts a controlled box back after the
  // event when no state changed in it).
  const [chosen, setChosen] = useState<boolean | null>(null);
  const schedule = rule.definition.schedule;
  return (
    <tr aria-current={selected ? 'true' : undefined}>
      <th scope="row">
        <button type="button" className="link-button" onClick={onSelect}>
          {rule.definition.name}
        </button>
        <div className="muted small">
          {rule.createdBy ? `By ${rule.createdBy}` : 'Made on this computer'}
        </div>
      </th>
      <td>
        <div>{actionSummary(rule.definition)}</div>
        <div className="muted small">{scopeSummary(rule.definition)}</div>
        <div className="muted small">{floorSummary(rule.definition)}</div>
      </td>
      <td>
        {rule.lastRun ? (
          <>
            <ShortDate iso={rule.lastRun.startedAt} time /> {runStatusWords(rule.lastRun)}
            <div className="muted small">{countOf(rule.lastRun.counts.changed, 'change')}</div>
          </>
        ) : (
          'Never'
        )}
      </td>
      <td>
        {schedule.daily ? (
          <label className="rule-enabled">
            <input
              type="checkbox"
              // Shows the seller's choice while it is saved, not the old state.
              checked={chosen ?? rule.enabled}
              disabled={!owner || update.isPending}
              onChange={(event) => {
                const enabled = event.target.checked;
                setChosen(enabled);
                update.mutate({ enabled }, { onSettled: () => setChosen(null) });
              }}
            />
            <span>
              <span className="visually-hidden">Run {rule.definition.name} </span>
              Daily at {schedule.time}
              {rule.nextRunAt && rule.enabled && (
                <span className="muted small">
                  {' '}
                  next <ShortDate iso={rule.nextRunAt} time />
                </span>
              )}
            </span>
          </label>
        ) : (
          'Only when run'
        )}
        <ErrorBanner error={update.error} title="Not changed" />
      </td>
    </tr>
  );
}

function RulePanel({ rule, role }: { rule: Rule; role: 'owner' | 'editor' | 'viewer' }) {
  const client = useApiClient();
  const [previewing, setPreviewing] = useState(false);
  const preview = useQuery({ ...rulePreviewQuery(client, rule.id), enabled: previewing });
  const run = useRunRule(rule.id);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="rule-panel" aria-labelledby="rule-panel-heading">
      <h2 id="rule-panel-heading" tabIndex={-1} ref={heading}>
        {rule.definition.name}
      </h2>
      <div className="rule-actions">
        {role !== 'viewer' && (
          <button
            type="button"
            onClick={() => (previewing ? void preview.refetch() : setPreviewing(true))}
          >
            Preview
          </button>
        )}
        {role === 'owner' && (
          <button
            type="button"
            className="primary"
            disabled={run.isPending}
            onClick={() => run.mutate(undefined, { onSuccess: () => setPreviewing(false) })}
          >
            {run.isPending ? 'Starting…' : 'Run now'}
          </button>
        )}
      </div>
      <ErrorBanner error={run.error} title="The rule did not run" />
      {previewing && (
        <section aria-labelledby="preview-heading">
          <h3 id="preview-heading">Preview</h3>
          {preview.isPending && <Loading label="Reading your listings…" />}
          <ErrorBanner error={preview.error} title="No preview" />
          {preview.data && (
            <>
              <p role="status">
                {countOf(preview.data.changes, 'listing')} would change, of{' '}
                {countOf(preview.data.inScope, 'listing')} in the rule’s listings. Nothing is sent
                by a preview.
                {Object.keys(preview.data.skipped).length > 0 &&
                  ` Left alone: ${Object.entries(preview.data.skipped)
                    .map(([reason, count]) => `${reasonWords(reason).toLowerCase()} ${count}`)
                    .join(', ')}.`}
                {preview.data.left > 0 &&
                  ` ${countOf(preview.data.left, 'more listing')} not listed here.`}
              </p>
              <PlanTable
                caption="What the rule would change"
                rows={preview.data.items.map((item) => ({
                  ...item,
                  outcome: item.kind === 'write' ? 'Would change' : reasonWords(item.reason),
                }))}
              />
            </>
          )}
        </section>
      )}
      <RunHistory rule={rule} owner={role === 'owner'} />
    </section>
  );
}

interface PlanRow {
  listingId: string;
  title: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  floor: string | null;
  why: string;
  outcome: string;
}

function PlanTable({ caption, rows }: { caption: string; rows: PlanRow[] }) {
  if (rows.length === 0) return <p>No listings in this rule’s scope.</p>;
  return (
    <div className="table-scroll">
      <table className="plan-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Listing</th>
            <th scope="col">Now</th>
            <th scope="col">New</th>
            <th scope="col">Floor</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.listingId}>
              <th scope="row">
                <Link to={paths.listing.to(row.listingId)}>{row.title}</Link>
                <div className="muted small">{row.outcome}</div>
              </th>
              <td>{fieldsText(row.before)}</td>
              <td>{fieldsText(row.after)}</td>
              <td>{row.floor === null ? '—' : <Money amount={row.floor} />}</td>
              <td>{row.why}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RunHistory({ rule, owner }: { rule: Rule; owner: boolean }) {
  const client = useApiClient();
  const runs = useQuery(ruleRunsQuery(client, rule.id));
  const [open, setOpen] = useState<number | undefined>();
  const undo = useUndoRun();
  const refresh = useRefreshAfterRun();
  const unfinished = runs.data?.runs.some((r) => r.status === 'running' || r.status === 'paused');
  const was = useRef(unfinished);
  useEffect(() => {
    // A run that just ended changed listings on the server: read them again.
    if (was.current && !unfinished) refresh();
    was.current = unfinished;
  }, [unfinished, refresh]);
  return (
    <section aria-labelledby="history-heading">
      <h3 id="history-heading">History</h3>
      <ErrorBanner error={undo.error} title="Not undone" />
      {runs.data && runs.data.runs.length === 0 && <p>This rule has not run yet.</p>}
      {runs.data && runs.data.runs.length > 0 && (
        <div className="table-scroll">
          <table className="runs-table">
            <caption className="visually-hidden">Runs of {rule.definition.name}</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Run</th>
                <th scope="col">Changed</th>
                <th scope="col">Skipped</th>
                <th scope="col">Failed</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {runs.data.runs.map((r) => (
                <RunRow
                  key={r.id}
                  run={r}
                  owner={owner}
                  open={open === r.id}
                  onToggle={() => setOpen(open === r.id ? undefined : r.id)}
                  onUndo={() =>
                    undo.mutate(r.id, { onSuccess: (answer) => setOpen(answer.run.id) })
                  }
                  undoing={undo.isPending}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {open !== undefined && <RunItems runId={open} />}
    </section>
  );
}

function RunRow({
  run,
  owner,
  open,
  onToggle,
  onUndo,
  undoing,
}: {
  run: RuleRun;
  owner: boolean;
  open: boolean;
  onToggle(): void;
  onUndo(): void;
  undoing: boolean;
}) {
  const when = new Date(run.startedAt).toLocaleString();
  const undoable =
    owner &&
    run.trigger !== 'undo' &&
    run.undoneBy === null &&
    (run.status === 'done' || run.status === 'stopped') &&
    run.counts.changed > 0;
  return (
    <tr>
      <td>
        <ShortDate iso={run.startedAt} time />
      </td>
      <td>
        {triggerWords(run)}
        {run.by && <div className="muted small">by {run.by}</div>}
      </td>
      <td className="numeric">{run.counts.changed}</td>
      <td className="numeric">{run.counts.skipped}</td>
      <td className="numeric">{run.counts.failed}</td>
      <td>
        {runStatusWords(run)}
        {run.counts.pending > 0 && (
          <div className="muted small">{countOf(run.counts.pending, 'change')} to send</div>
        )}
        {run.note && <div className="small">{run.note}</div>}
      </td>
      <td className="run-actions">
        <button
          type="button"
          aria-expanded={open}
          onClick={onToggle}
          aria-label={`${open ? 'Hide' : 'Show'} the run of ${when}`}
        >
          {open ? 'Hide' : 'Show'}
        </button>
        {undoable && (
          <button
            type="button"
            onClick={onUndo}
            disabled={undoing}
            aria-label={`Undo the run of ${when}`}
          >
            Undo
          </button>
        )}
      </td>
    </tr>
  );
}

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

export { RulesPage as Component };
