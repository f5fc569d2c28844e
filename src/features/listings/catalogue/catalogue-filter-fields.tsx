import type { CatalogueSearch } from './catalogue-filters';
import { AGE_BUCKETS } from '../../../api/sales/listing-age';
import { humanize } from '../../../lib/format';
import { SelectField } from '../../../components/options';
import { FACETS, YES_NO } from './catalogue-filter-pills';

type Patch = Partial<Record<keyof CatalogueSearch, string | undefined>>;
type FacetKey = (typeof FACETS)[number]['key'];

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
      {(['offers', 'rule', 'lot'] as const).map((key) => (
        <SelectField
          key={key}
          id={`filter-${key}`}
          label={YES_NO[key].label}
          value={search[key] ?? ''}
          any="Any"
          options={[
            ['yes', YES_NO[key].yes],
            ['no', YES_NO[key].no],
          ]}
          onChange={(value) => onChange({ [key]: value })}
        />
      ))}
    </>
  );
}
