import { AGE_BUCKETS, type AgeBucketId } from '../../../api/sales/listing-age';
import { Options } from '../../../components/options';

/** The catalogue's "Listed for" filter (the `age` search param), by days since `listed_at`. */
export function AgeFilterField({
  value,
  onChange,
}: {
  value: AgeBucketId | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor="filter-age">Listed for</label>
      <select id="filter-age" value={value ?? ''} onChange={(e) => onChange(e.target.value)}>
        <option value="">Any time</option>
        <Options of={AGE_BUCKETS.map((bucket) => [bucket.id, bucket.label])} />
      </select>
    </div>
  );
}
