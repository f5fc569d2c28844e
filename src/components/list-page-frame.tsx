import type { ReactNode } from 'react';
import { ActiveFilters, type ActiveFilter } from './active-filters';
import { Loading } from './states';

/**
 * The one frame of a list page: the heading and its actions, what the page says before the
 * filters, the search form, the filters in force as pills, the saved views, what went wrong, the
 * wait, the count in words, then the list itself, or what stands for it when nothing is shown.
 */
export function ListPageFrame({
  id,
  title,
  intro,
  actions,
  notice,
  filters,
  filtersLabel,
  filtersKey,
  onFiltersSubmit,
  active = [],
  onRemoveFilters,
  views,
  problems,
  loading,
  summary,
  empty,
  children,
}: {
  /** Names the heading (`<id>-heading`) the page is labelled by. */
  id: string;
  title: string;
  /** A line under the heading: what the page lists. */
  intro?: ReactNode;
  /** The page's actions, beside the heading. */
  actions?: ReactNode;
  /** Said above the filters (how far a long read has come). */
  notice?: ReactNode;
  /** The search form's fields. */
  filters: ReactNode;
  /** The search form's name, where the page has more than one search. */
  filtersLabel?: string;
  /** A new key starts the form's fields again (from a new address). */
  filtersKey?: string;
  /** The form's own submit (default: nothing, each field applies as it changes). */
  onFiltersSubmit?(form: HTMLFormElement): void;
  /** The filters in force, as removable pills. */
  active?: readonly ActiveFilter[];
  onRemoveFilters?(ids: string[]): void;
  /** The saved views and columns (`TableViews`), where the page has them. */
  views?: ReactNode;
  /** Error banners and records left out. */
  problems?: ReactNode;
  /** The wait's words while the list is read; absent when nothing is awaited. */
  loading?: string | undefined;
  /** The count in words (a polite status line); absent before anything is read. */
  summary?: ReactNode;
  /** What stands for the list when nothing is shown (an empty state); absent: the list. */
  empty?: ReactNode;
  /** The list: the house's `DataTable`. */
  children?: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-heading`}>
      <div className="page-head">
        <h1 id={`${id}-heading`}>{title}</h1>
        {actions && <div className="page-actions">{actions}</div>}
      </div>
      {intro && <p className="muted">{intro}</p>}
      {notice}
      <form
        key={filtersKey}
        className="filters"
        role="search"
        aria-label={filtersLabel}
        onSubmit={(event) => {
          event.preventDefault();
          onFiltersSubmit?.(event.currentTarget);
        }}
      >
        {filters}
      </form>
      {onRemoveFilters && <ActiveFilters filters={active} onRemove={onRemoveFilters} />}
      {views}
      {problems}
      {loading !== undefined && <Loading label={loading} />}
      {summary !== undefined && summary !== null && (
        <p className="table-summary" role="status">
          {summary}
        </p>
      )}
      {empty ?? children}
    </section>
  );
}
