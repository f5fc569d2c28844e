/** One filter in force: its name, its value in words, and the search params it clears. */
export interface ActiveFilter {
  id: string;
  label: string;
  value: string;
}

/** The filters in force as removable pills, with "Clear all" when there are several. */
export function ActiveFilters({
  filters,
  onRemove,
}: {
  filters: readonly ActiveFilter[];
  onRemove(ids: string[]): void;
}) {
  if (filters.length === 0) return null;
  return (
    <div className="active-filters">
      <ul className="filter-pills" aria-label="Filters in force">
        {filters.map((filter) => (
          <li key={filter.id} className="filter-pill">
            <span>
              {filter.label}: {filter.value}
            </span>
            <button
              type="button"
              className="filter-pill-remove"
              aria-label={`Remove the filter ${filter.label}: ${filter.value}`}
              title="Remove this filter"
              onClick={() => onRemove([filter.id])}
            >
              <span aria-hidden="true">×</span>
            </button>
          </li>
        ))}
      </ul>
      {filters.length > 1 && (
        <button
          type="button"
          className="link-button"
          onClick={() => onRemove(filters.map((filter) => filter.id))}
        >
          Clear all
        </button>
      )}
    </div>
  );
}
