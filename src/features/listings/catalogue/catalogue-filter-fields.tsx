import type { CatalogueSearch } from './catalogue-filters';
import { AgeFilterField } from './age-filter-field';
import { humanize } from '../../../lib/format';
import { Options } from '../../../components/options';

type Patch = Partial<Record<keyof CatalogueSearch, string | undefined>>;
type FacetKey = 'status' | 'grader' | 'grade' | 'category';

const FACETS: { key: FacetKey; label: string }[] = [
  { key: 'status', label: 'Status' },
  { key: 'grader', label: 'Grader' },
  { key: 'grade', label: 'Grade' },
  { key: 'category', label: 'Category' },
];

/** The yes-or-no filters, each with its own words for the two choices. */
const CHOICES: { key: 'offers' | 'rule' | 'lot'; label: string; yes: string; no: string }[] = [
  { key: 'offers', label: 'Offers', yes: 'Accepts offers', no: 'No offers' },
  {
    key: 'rule',
    label: 'Pricing rules',
    yes: 'Changed by a rule',
    no: 'Not changed by a rule',
  },
  { key: 'lot', label: 'Lots', yes: 'Lots only', no: 'Single cards' },
];

/** One filter: a labelled select whose first choice, "Any", clears it. */
function FilterSelect({
  id,
  label,
  value,
  options,
  onChange,
  className = 'field',
}: {
  id: keyof CatalogueSearch;
  label: string;
  className?: string;
  value: string | undefined;
  options: readonly { value: string; label: string }[];
  onChange(patch: Patch): void;
}) {
  return (
    <div className={className}>
      <label htmlFor={`filter-${id}`}>{label}</label>
      <select
        id={`filter-${id}`}
        value={value ?? ''}
        onChange={(event) => onChange({ [id]: event.target.value })}
      >
        <option value="">Any</option>
        <Options of={options.map((option) => [option.value, option.label])} />
      </select>
    </div>
  );
}

/** The catalogue's filters (not the search), each change written to the address at once. */
export function CatalogueFilterFields({
  search,
  facets,
  onChange,
}: {
  search: CatalogueSearch;
  facets: Record<FacetKey, readonly string[]>;
  onChange(patch: Patch): void;
}) {
  return (
    <>
      {FACETS.map((filter) => (
        <FilterSelect
          key={filter.key}
          id={filter.key}
          label={filter.label}
          // Choices come from the listings as read: a fixed width keeps the fields beside it still.
          className="field facet-field"
          value={search[filter.key]}
          options={facets[filter.key].map((value) => ({
            value,
            label: humanize(value),
          }))}
          onChange={onChange}
        />
      ))}
      <AgeFilterField value={search.age} onChange={(age) => onChange({ age })} />
      {CHOICES.map((choice) => (
        <FilterSelect
          key={choice.key}
          id={choice.key}
          label={choice.label}
          value={search[choice.key]}
          options={[
            { value: 'yes', label: choice.yes },
            { value: 'no', label: choice.no },
          ]}
          onChange={onChange}
        />
      ))}
    </>
  );
}
