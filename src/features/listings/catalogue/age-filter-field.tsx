import { AGE_BUCKETS, type AgeBucketId } from '../../../api/sales/listing-age';

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
        {AGE_BUCKETS.map((bucket) => (
          <option key={bucket.id} value={bucket.id}>
            {bucket.label}
          </option>
        ))}
      </select>
    </div>
  );
}
