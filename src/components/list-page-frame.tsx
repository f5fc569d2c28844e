import type { ReactNode } from 'react';
import { ActiveFilters, type ActiveFilter } from './active-filters';
import { Loading } from './states';
import { countOf, plural } from '../lib/format';

/** A search that found nothing under the filters in force: what it finds without them, a click away. */
export function OtherMatches(props: {
  count: number;
  noun: string;
  where: string;
  onShow(): void;
}) {
  const { count, noun, where, onShow } = props;
  if (count === 0) return <p>Nothing matches {where} either.</p>;
  return (
    <p>
      {countOf(count, noun)} {plural(count, 'matches', 'match')} {where}.{' '}
      <button type="button" onClick={onShow}>
        {count === 1 ? `Show that ${noun}` : `Show all ${count}`}
      </button>
    </p>
  );
}

/** The one search box of a list page, first in its filters. */
export interface ListSearch {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange(value: string): void;
}

/** The one frame of a list page, top to bottom in the order a seller reads it. */
export function ListPageFrame({
  id,
  title,
  intro,
  actions,
  notice,
  search,
  filters,
  filtersLabel,
  filtersKey,
  onFiltersSubmit,
  active = [],
  onRemoveFilters,
  views,
  listWaits = false,
  problems,
  loading,
  summary,
  empty,
  className,
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
  search?: ListSearch;
  /** The search form's other fields; without them or a search, the list has no search form. */
  filters?: ReactNode;
  /** The search form's name, where the page has more than one search. */
  filtersLabel?: string;
  /** A new key starts the form's fields again (from a new address). */
  filtersKey?: string;
  /** The form's own submit (default: nothing, each field applies as it changes). */
  onFiltersSubmit?(form: HTMLFormElement): void;
  /** The filters in force, as removable pills. */
  active?: readonly ActiveFilter[];
  /** `patch` clears the removed filters' search params (each id's value `''`). */
  onRemoveFilters?(patch: Record<string, string>, ids: string[]): void;
  /** The saved views and columns (`TableViews`), where the page has them. */
  views?: ReactNode;
  /** While the views are read (`useViewsRead`): what is under them comes after, so none of it moves. */
  listWaits?: boolean;
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
  className?: string;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className={className}>
      <div className="page-head">
        <h1 id={`${id}-heading`}>{title}</h1>
        {actions && <div className="page-actions">{actions}</div>}
      </div>
      {intro && <p className="muted">{intro}</p>}
      {notice}
      {(search || filters) && (
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
          {search && (
            <div className="field search-field">
              <label htmlFor={search.id}>{search.label}</label>
              <input
                id={search.id}
                type="search"
                placeholder={search.placeholder}
                value={search.value}
                onChange={(event) => search.onChange(event.target.value)}
              />
            </div>
          )}
          {filters}
        </form>
      )}
      {onRemoveFilters && (
        <ActiveFilters
          filters={active}
          onRemove={(ids) => onRemoveFilters(Object.fromEntries(ids.map((id) => [id, ''])), ids)}
        />
      )}
      {views}
      {problems}
      {!listWaits && (
        <>
          {loading !== undefined && <Loading label={loading} />}
          {summary !== undefined && summary !== null && (
            <p className="table-summary" role="status">
              {summary}
            </p>
          )}
          {empty ?? children}
        </>
      )}
    </section>
  );
}
