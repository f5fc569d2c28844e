import { useState } from 'react';
import { useSavedViews } from '../api/views/view-queries';
import { isApiError } from '../client';
import { COLUMNS_PARAM, viewPatch, viewSearch, type SearchPatch } from '../lib/saved-views';
import type { ViewTable } from '../shared/saved-views';
import { PopoverButton } from './popover-button';
import { FormField } from './form-field';

/** A table's saved views and column chooser; the view is the URL, so it can be shared. */
export function TableViews({
  table,
  label,
  params,
  columns,
  choice,
  onChange,
  onApply,
}: {
  /** The table whose views these are (the account's, kept by the server). */
  table: ViewTable;
  /** The table's name for people ("listings"). */
  label: string;
  params: URLSearchParams;
  columns: readonly { id: string; header: string }[];
  /** The page's column choice (`useVisibleColumns`). */
  choice: { chosen: ReadonlySet<string>; remember(ids: readonly string[]): void };
  /** Writes a change of the page's search params: a view's, or the columns. */
  onChange(patch: SearchPatch): void;
  /** Told a view's search once it is applied. */
  onApply?(search: string): void;
}) {
  const { views, save, remove } = useSavedViews(table);
  const [message, setMessage] = useState<string | null>(null);
  const current = viewSearch(params);
  const active = views.find((view) => view.search === current)?.name ?? '';

  const { chosen } = choice;
  const toggle = (column: string, on: boolean) => {
    const next = columns.map((c) => c.id).filter((c) => (c === column ? on : chosen.has(c)));
    if (next.length === 0) return;
    choice.remember(next);
    onChange({ cols: next.join(',') });
  };
  const show = (search: string) => {
    onChange(viewPatch(params, search));
    onApply?.(search);
  };

  return (
    <div className="table-views">
      <div className="view-tabs" role="group" aria-label={`Saved views of the ${label}`}>
        <button
          type="button"
          className="view-tab"
          aria-pressed={current === ''}
          onClick={() => {
            show('');
            setMessage(`Showing all ${label}.`);
          }}
        >
          All {label}
        </button>
        {views.map((view) => (
          <button
            key={view.name}
            type="button"
            className="view-tab"
            aria-pressed={view.name === active}
            onClick={() => {
              show(view.search);
              setMessage(`Showing the view “${view.name}”.`);
            }}
          >
            {view.name}
          </button>
        ))}
      </div>
      <PopoverButton label="Save as…" panelLabel={`Save this view of the ${label}`}>
        {(close) => (
          <SaveViewForm
            label={label}
            onSave={async (name) => {
              await save.mutateAsync({ name, search: current });
              setMessage(`Saved the view “${name}”; your other devices have it too.`);
              close();
            }}
          />
        )}
      </PopoverButton>
      {active && (
        <button
          type="button"
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(active, {
              onSuccess: () => setMessage(`Deleted the view “${active}”.`),
              onError: (error) => setMessage(wordsOf(error, 'deleted')),
            })
          }
        >
          Delete view
        </button>
      )}
      <PopoverButton label="Columns" panelLabel="Columns to show" className="column-chooser">
        {() => (
          <div className="column-checks">
            {columns.map((column) => (
              <label key={column.id} className="check">
                <input
                  type="checkbox"
                  checked={chosen.has(column.id)}
                  disabled={chosen.has(column.id) && chosen.size === 1}
                  onChange={(event) => toggle(column.id, event.target.checked)}
                />{' '}
                {column.header} column
              </label>
            ))}
          </div>
        )}
      </PopoverButton>
      {/* Always there, so a message coming moves nothing and is read out. */}
      <p className="muted table-views-message" role="status">
        {message}
      </p>
    </div>
  );
}

/** The server's words for a refusal (a 422 names the field), else what to try. */
const wordsOf = (error: unknown, what: 'saved' | 'deleted') =>
  isApiError(error) && error.hasFieldErrors
    ? `${Object.values(error.fieldErrors).flat().join('. ')}.`
    : `The view was not ${what}; try again when the server answers.`;

/** "Save as…": the new view's name, saved on Enter or the button. */
function SaveViewForm({ label, onSave }: { label: string; onSave(name: string): Promise<void> }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  return (
    <form
      className="save-view-form"
      aria-label={`Save this view of the ${label}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (!name.trim()) {
          setError('Give the view a name to save it.');
          return;
        }
        setSaving(true);
        onSave(name.trim()).catch((refused: unknown) => {
          setError(wordsOf(refused, 'saved'));
          setSaving(false);
        });
      }}
    >
      <FormField
        label="View name"
        error={error}
        input={{ value: name, maxLength: 60, onChange: (event) => setName(event.target.value) }}
      />
      <button type="submit" className="primary" disabled={saving}>
        {saving ? 'Saving…' : 'Save view'}
      </button>
    </form>
  );
}

export { COLUMNS_PARAM };
