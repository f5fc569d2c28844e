import type { CatalogueSearch } from './catalogue-filters';
import { AGE_BUCKETS } from '../../../api/sales/listing-age';
import { humanize } from '../../../lib/format';
import { SelectField } from '../../../components/options';

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
      {FACETS.map(({ key, label }) => (
        <SelectField
          key={key}
          id={`filter-${key}`}
          label={label}
          // Choices come from the listings as read: a fixed width keeps the fields beside it still.
          className="field facet-field"
          value={search[key] ?? ''}
          any="Any"
          options={facets[key].map((value) => [value, humanize(value)])}
          onChange={(value) => onChange({ [key]: value })}
        />
      ))}
      {/* The `age` param, by days since `listed_at`. */}
      <SelectField
        id="filter-age"
        label="Listed for"
        value={search.age ?? ''}
        any="Any time"
        options={AGE_BUCKETS.map((bucket) => [bucket.id, bucket.label])}
        onChange={(age) => onChange({ age })}
      />
      {CHOICES.map(({ key, label, yes, no }) => (
        <SelectField
          key={key}
          id={`filter-${key}`}
          label={label}
          value={search[key] ?? ''}
          any="Any"
          options={[
            ['yes', yes],
            ['no', no],
          ]}
          onChange={(value) => onChange({ [key]: value })}
        />
      ))}
    </>
  );
}
