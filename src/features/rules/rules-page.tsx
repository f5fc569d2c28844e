import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useApiClient } from '../../api/api-context';
import { RulesUnavailable, type Rule } from '../../api/rules/rules-api';
import { rulePreviewQuery, rulesListQuery } from '../../api/rules/rules-queries';
import { ErrorBanner } from '../../components/error-banner';
import { EmptyState, Loading } from '../../components/states';
import { countOf } from '../../lib/format';
import { ListPageFrame } from '../../components/list-page-frame';
import { NewRuleForm } from './rule-form';
import { PlanTable } from './plan-table';
import { RulesTable } from './rules-table';
import { RunHistory } from './run-history';
import { DeletedRules, DeleteRule } from './delete-rule';
import { RunNow } from './run-now';
import { reasonWords } from './rule-words';
import './rules.css';

/** The pricing rules: each rule, its preview, run now, and each run's history with undo. */
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
      <ListPageFrame id="rules" title="Pricing rules">
        <EmptyState title="This server runs no pricing rules">
          Rules run on the dashboard’s own server with its activity log turned on.
        </EmptyState>
      </ListPageFrame>
    );
  }
  if (list.error) return <ErrorBanner error={list.error} onRetry={() => void list.refetch()} />;
  const { rules, role, pause } = list.data;
  const owner = role === 'owner';
  const rule = rules.find((r) => r.id === selected);

  return (
    <ListPageFrame
      id="rules"
      className="rules-page"
      title="Pricing rules"
      actions={
        owner && (
          <button
            type="button"
            onClick={() => setCreating((open) => !open)}
            aria-expanded={creating}
          >
            {creating ? 'Close the new rule' : 'New rule'}
          </button>
        )
      }
      intro={
        <>
          Rules change prices by themselves, never below their floor, and leave alone what a person
          just edited. Every change shows in the Activity log and a run can be undone.
          {!owner &&
            ` You are signed in as ${role === 'editor' ? 'an editor: you can preview' : 'a viewer: you can look'}; an owner makes and runs rules.`}
        </>
      }
      notice={
        <>
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
        </>
      }
    >
      {rules.length === 0 ? (
        <EmptyState title="No rules yet">
          {owner
            ? 'Make one with “New rule”, from a saved view of your listings.'
            : 'An owner makes rules.'}
        </EmptyState>
      ) : (
        <RulesTable rules={rules} owner={owner} selected={selected} onSelect={select} />
      )}
      {rule && <RulePanel key={rule.id} rule={rule} role={role} />}
      {list.data.deleted && list.data.deleted.length > 0 && (
        <DeletedRules deleted={list.data.deleted} />
      )}
    </ListPageFrame>
  );
}

function RulePanel({ rule, role }: { rule: Rule; role: 'owner' | 'editor' | 'viewer' }) {
  const client = useApiClient();
  const [previewing, setPreviewing] = useState(false);
  const [editing, setEditing] = useState(false);
  const preview = useQuery({ ...rulePreviewQuery(client, rule.id), enabled: previewing });
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
          <RunNow
            rule={rule}
            previewPlan={async () => {
              // The plan on screen is the one run; without one, it is read and shown first.
              if (previewing && preview.data) return preview.data;
              setPreviewing(true);
              return (await preview.refetch()).data;
            }}
            onStarted={() => setPreviewing(false)}
            onPlanChanged={() => void preview.refetch()}
          />
        )}
      </div>
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
      {role === 'owner' && (
        <div className="rule-actions">
          <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
            {editing ? 'Close the edit' : 'Edit rule'}
          </button>
          <DeleteRule rule={rule} />
        </div>
      )}
      {editing && <NewRuleForm editing={rule} onCreated={() => setEditing(false)} />}
      <RunHistory rule={{ id: rule.id, name: rule.definition.name }} owner={role === 'owner'} />
    </section>
  );
}

export { RulesPage as Component };
