import type { SetAsideRecord } from '../client';
import { countOf, plural } from '../lib/format';

/** A list's records that could not be read, counted, so "N of N" never hides one; ids in Details. */
export function SetAsideNotice({
  records,
  noun,
}: {
  records: readonly SetAsideRecord[];
  /** What a record is, singular: "card", "order". */
  noun: string;
}) {
  if (records.length === 0) return null;
  return (
    <div className="banner banner-warn" role="status">
      <p>
        {countOf(records.length, noun)} could not be read and {plural(records.length, 'is', 'are')}{' '}
        left out of this page and its totals. Reloading may bring{' '}
        {plural(records.length, 'it', 'them')} back; if not, contact support with the details.
      </p>
      <details>
        <summary>Details</summary>
        <p>{records.map((record) => record.id ?? '?').join(', ')}</p>
      </details>
    </div>
  );
}
