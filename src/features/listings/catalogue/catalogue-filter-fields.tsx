import type { CatalogueSearch } from './catalogue-filters';
import { AgeFilterField } from './age-filter-field';

const FACETS: { key: 'status' | 'grader' | 'grade' | 'category'; label: string }[] = [
  { key: 'status', label: 'Status' },
  { key: 'grader', label: 'Grader' },
  { key: 'grade', label: 'Grade' },
  { key: 'category', label: 'Category' },
];

type Patch = Partial<Record<keyof CatalogueSearch, string | undefined>>;

/**
 * The catalogue's filters (all but the search): in the filter row at a desk, in the Filters
 * sheet on a phone. Each change is written to the address at once.
 */
export function CatalogueFilterFields({
  search,
  facets,
  onChange,
}: {
  search: CatalogueSearch;
  facets: Record<(typeof FACETS)[number]['key'], readonly string[]>;
  onChange(patch: Patch): void;
}) {
  return (
    <>
      {FACETS.map((filter) => (
        <div className="field" key={filter.key}>
          <label htmlFor={`filter-${filter.key}`}>{filter.label}</label>
          <select
            id={`filter-${filter.key}`}
            value={search[filter.key] ?? ''}
            onChange={(event) => onChange({ [filter.key]: event.target.value })}
          >
            <option value="">Any</option>
            {facets[filter.key].map((value) => (
              <option key={value} value={value}>
                {value.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </div>
      ))}
      <AgeFilterField value={search.age} onChange={(age) => onChange({ age })} />
      <div className="field">
        <label htmlFor="filter-offers">Offers</label>
        <select
          id="filter-offers"
          value={search.offers ?? ''}
          onChange={(event) => onChange({ offers: event.target.value })}
        >
          <option value="">Any</option>
          <option value="yes">Accepts offers</option>
          <option value="no">No offers</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-rule">Pricing rules</label>
        <select
          id="filter-rule"
          value={search.rule ?? ''}
          onChange={(event) => onChange({ rule: event.target.value })}
        >
          <option value="">Any</option>
          <option value="yes">Changed by a rule</option>
          <option value="no">Not changed by a rule</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-lot">Lots</label>
        <select
          id="filter-lot"
          value={search.lot ?? ''}
          onChange={(event) => onChange({ lot: event.target.value })}
        >
          <option value="">Any</option>
          <option value="yes">Lots only</option>
          <option value="no">Single cards</option>
        </select>
      </div>
    </>
  );
}
