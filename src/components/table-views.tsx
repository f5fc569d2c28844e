import { useId, useState } from 'react';
import {
  COLUMNS_PARAM,
  useSavedViews,
  viewPatch,
  viewSearch,
  type SearchPatch,
} from '../lib/saved-views';

/**
 * Saved views and the column chooser of one table: pick a saved view, save the current filters,
 * sort and columns under a name, delete one, and choose the columns (remembered for the table).
 * The current view is always the page's URL, so it can be shared as a link.
 */
export function TableViews({
  table,
  label,
  params,
  columns,
  choice,
  onChange,
  onApply,
}: {
  /** The storage name of the table (`listings`, `orders`, `inventory`). */
  table: string;
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
  const [name, setName] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const id = useId();
  const current = viewSearch(params);
  const active = views.find((view) => view.search === current)?.name ?? '';

  const { chosen } = choice;
  const toggle = (column: string, on: boolean) => {
    const next = columns.map((c) => c.id).filter((c) => (c === column ? on : chosen.has(c)));
    if (next.length === 0) return;
    choice.remember(next);
    onChange({ cols: next.join(',') });
  };

  return (
    <div className="table-views">
      <div className="field">
        <label htmlFor={`${id}-view`}>Saved view</label>
        <select
          id={`${id}-view`}
          value={active}
          onChange={(event) => {
            const view = views.find((v) => v.name === event.target.value);
            const search = view ? view.search : '';
            onChange(viewPatch(params, search));
            onApply?.(search);
            setMessage(view ? `Showing the view “${view.name}”.` : 'Showing all ' + label + '.');
          }}
        >
          <option value="">{active ? 'All ' + label : 'Current filters'}</option>
          {views.map((view) => (
            <option key={view.name} value={view.name}>
              {view.name}
            </option>
          ))}
        </select>
      </div>
      <form
        className="inline-form"
        aria-label={`Save this view of the ${label}`}
        onSubmit={(event) => {
          event.preventDefault();
          if (!name.trim()) {
            setMessage('Give the view a name to save it.');
            return;
          }
          save(name, current);
          setMessage(`Saved the view “${name.trim()}”. Its link is this page's address.`);
          setName('');
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-name`}>View name</label>
          <input
            id={`${id}-name`}
            value={name}
            maxLength={60}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <button type="submit">Save view</button>
        {active && (
          <button
            type="button"
            onClick={() => {
              remove(active);
              setMessage(`Deleted the view “${active}”.`);
            }}
          >
            Delete view
          </button>
        )}
      </form>
      <details className="column-chooser">
        <summary>Columns</summary>
        <fieldset>
          <legend>Columns to show</legend>
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
        </fieldset>
      </details>
      {message && (
        <p className="muted" role="status">
          {message}
        </p>
      )}
    </div>
  );
}

export { COLUMNS_PARAM };
