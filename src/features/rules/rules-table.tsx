import { useState } from 'react';
import type { Rule } from '../../api/rules/rules-api';
import { useUpdateRule } from '../../api/rules/rules-mutations';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorBanner } from '../../components/error-banner';
import { ShortDate } from '../../components/figure';
import { countOf } from '../../lib/format';
import { actionSummary, floorSummary, runStatusWords, scopeSummary } from './rule-words';

/** A rule's time zone as the seller reads it: "your time, Europe/Paris", or the zone's own time. */
export function zoneWords(timeZone: string): string {
  const yours = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return timeZone === yours ? `(your time, ${timeZone})` : `(${timeZone} time)`;
}

/** Whether a rule runs by itself (a daily rule, a sale): the owner's box, else in words. */
function RunsByItself({ rule, owner }: { rule: Rule; owner: boolean }) {
  const update = useUpdateRule(rule.id);
  // The seller's choice, set in the click: React puts a controlled box back unless state changed.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const { schedule, action } = rule.definition;
  const sale = action.kind === 'sale';
  return (
    <>
      {schedule.daily || sale ? (
        <label className="rule-enabled">
          <input
            type="checkbox"
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
            {sale ? 'On its dates' : `Daily at ${schedule.time} ${zoneWords(schedule.timeZone)}`}
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
    </>
  );
}

function columnsOf(owner: boolean, onSelect: (id: number) => void): readonly Column<Rule>[] {
  return [
    {
      id: 'rule',
      header: 'Rule',
      rowHeader: true,
      cell: (rule) => (
        <>
          <button type="button" className="link-button" onClick={() => onSelect(rule.id)}>
            {rule.definition.name}
          </button>
          <div className="muted small">
            {rule.createdBy ? `By ${rule.createdBy}` : 'Made on this computer'}
          </div>
        </>
      ),
    },
    {
      id: 'does',
      header: 'What it does',
      cell: (rule) => (
        <>
          <div>{actionSummary(rule.definition)}</div>
          <div className="muted small">{scopeSummary(rule.definition)}</div>
          <div className="muted small">{floorSummary(rule.definition)}</div>
        </>
      ),
    },
    {
      id: 'last',
      header: 'Last run',
      cell: (rule) =>
        rule.lastRun ? (
          <>
            <ShortDate iso={rule.lastRun.startedAt} time /> {runStatusWords(rule.lastRun)}
            <div className="muted small">{countOf(rule.lastRun.counts.changed, 'change')}</div>
          </>
        ) : (
          'Never'
        ),
    },
    {
      id: 'schedule',
      header: 'Runs by itself',
      cell: (rule) => <RunsByItself rule={rule} owner={owner} />,
    },
  ];
}

/** The seller's rules, each opened by its name; the one open is marked current. */
export function RulesTable({
  rules,
  owner,
  selected,
  onSelect,
}: {
  rules: readonly Rule[];
  owner: boolean;
  selected: number | undefined;
  onSelect(id: number): void;
}) {
  return (
    <DataTable
      caption="Your pricing rules"
      rows={rules}
      columns={columnsOf(owner, onSelect)}
      getRowId={(rule) => String(rule.id)}
      windowed={false}
      className="rules-table"
      currentRowId={selected === undefined ? undefined : String(selected)}
    />
  );
}
