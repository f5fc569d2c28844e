import { DataTable, type CardLayout, type Column } from '../../../components/data-table';
import type { Excluded, Plan, PlanItem } from './logic/diff';
import { FIELD_LABELS } from './logic/rows';
import { countOf, plural } from '../../../lib/format';
import { centsOf, formatDollars } from '../../../shared/money';
import { useMemo, useState } from 'react';
import { ApplyAskDialog, planAsk } from './apply-ask';

/** What applying does to a listing, in words: its fields saved, then taken off sale. */
export function changeWords(item: PlanItem): string {
  const words = item.writes.map((write) => (write.method === 'DELETE' ? 'take off sale' : 'save'));
  const text = words.join(', then ');
  return text ? text[0]!.toUpperCase() + text.slice(1) : 'Nothing';
}

/** On a phone each change is a card: the listing, then before → after and what is done. */
const PREVIEW_CARDS: CardLayout = { title: 'listing', fields: ['changes', 'writes'], height: 112 };

/** A value as the seller reads it elsewhere: money as dollars, nothing as "(empty)". */
function shown(field: string, value: string): string {
  if (!value) return '(empty)';
  const cents = field === 'price' || field === 'minimumOffer' ? centsOf(value) : undefined;
  return cents === undefined ? value : formatDollars(cents);
}

const columns: Column<PlanItem>[] = [
  { id: 'listing', header: 'Listing', width: '28%', cell: (item) => item.title },
  {
    id: 'changes',
    header: 'Before → after',
    width: '42%',
    cell: (item) => (
      <ul className="change-list">
        {item.changes.map((change) => (
          <li key={`${change.field}-${change.implied ? 'rule' : 'edit'}`}>
            <span className="change-field">{change.label}</span>{' '}
            {/* Before → after as one whole: a price is never cut or split across lines. */}
            <span className="change-values">
              {shown(change.field, change.before)} →{' '}
              <strong>{shown(change.field, change.after)}</strong>
            </span>
            {change.implied ? ' (by the rule)' : ''}
          </li>
        ))}
      </ul>
    ),
  },
  {
    id: 'rules',
    header: 'Rules',
    width: '20%',
    cell: (item) => (item.notes.length > 0 ? item.notes.join(' ') : '—'),
  },
  {
    id: 'writes',
    header: 'Change',
    width: '10%',
    cell: (item) => changeWords(item),
  },
];

/** The listings left out of an edit, each with why (ids not in the catalogue too). */
export function LeftOut({
  excluded,
  missing = [],
  open,
}: {
  excluded: readonly Excluded[];
  missing?: readonly string[];
  open?: boolean;
}) {
  if (excluded.length + missing.length === 0) return null;
  return (
    <details className="bulk-excluded" open={open}>
      <summary>{countOf(excluded.length + missing.length, 'listing')} left out</summary>
      <ul>
        {excluded.map((row) => (
          <li key={row.id}>
            {row.title} ({row.id}): {row.reason}
          </li>
        ))}
        {missing.map((id) => (
          <li key={id}>{id}: not in the catalogue</li>
        ))}
      </ul>
    </details>
  );
}

/** The preview: each change before → after, what is left out and why, writes and their estimate. */
export function PreviewPanel({
  plan,
  estimate,
  onApply,
  onBack,
  blocked,
  belowCost,
}: {
  plan: Plan;
  estimate: string;
  onApply(): void;
  onBack(): void;
  /** Why Apply waits (a below-cost warning not yet resolved), said beside it. */
  blocked?: string | undefined;
  /** How many listings the seller chose to sell below cost. */
  belowCost?: number;
}) {
  const [asking, setAsking] = useState(false);
  const ask = useMemo(() => planAsk(plan, belowCost), [plan, belowCost]);
  const rows = plan.items.length;
  const invalidRows = new Set(plan.invalid.map((cell) => cell.id)).size;
  return (
    <section className="bulk-preview panel" aria-labelledby="bulk-preview-heading">
      <h2 id="bulk-preview-heading">Preview</h2>
      <p className="bulk-estimate" role="status">
        {countOf(rows, 'listing')} change: {estimate}
      </p>
      {plan.invalid.length > 0 && (
        <div className="banner banner-error" role="alert">
          <p>
            <strong>
              {countOf(plan.invalid.length, 'cell')} {plural(plan.invalid.length, 'is', 'are')} not
              valid.
            </strong>{' '}
            Their rows are left out of this run (the rest can be applied) until they are fixed:
          </p>
          <ul>
            {plan.invalid.slice(0, 20).map((cell) => (
              <li key={`${cell.id}-${cell.field}`}>
                {cell.title || 'Untitled listing'}, {FIELD_LABELS[cell.field]}: {cell.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {plan.rules.length > 0 && (
        <div className="bulk-rules">
          <h3>Rules the API applies</h3>
          <ul>
            {plan.rules.map((rule) => (
              <li key={rule}>{rule}</li>
            ))}
          </ul>
        </div>
      )}
      <LeftOut excluded={plan.excluded} />
      {rows > 0 ? (
        <DataTable
          caption="Changes to send"
          rows={plan.items}
          columns={columns}
          getRowId={(item) => item.id}
          rowHeight={72}
          height={360}
          cards={PREVIEW_CARDS}
        />
      ) : (
        <p>Nothing to send: no cell differs from the listing as it is.</p>
      )}
      <div className="button-row">
        <button type="button" onClick={onBack}>
          Back to editing
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => (ask.ask ? setAsking(true) : onApply())}
          disabled={plan.writes === 0 || blocked !== undefined}
          aria-describedby={blocked ? 'bulk-apply-blocked' : undefined}
        >
          Apply {countOf(plan.writes, 'change')}
          {invalidRows > 0 ? `, leaving out ${countOf(invalidRows, 'row')} to fix` : ''}
        </button>
      </div>
      {blocked && (
        <p id="bulk-apply-blocked" className="field-error">
          {blocked}
        </p>
      )}
      <ApplyAskDialog
        plan={plan}
        ask={ask}
        open={asking}
        onConfirm={() => {
          setAsking(false);
          onApply();
        }}
        onCancel={() => setAsking(false)}
      />
    </section>
  );
}
