import type { SetAsideRecord } from '../client';
import { countOf, plural } from '../lib/format';

/** A list's records that could not be read, named by id, so "N of N" never hides one. */
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
    <p className="banner banner-warn" role="status">
      {countOf(records.length, noun)} could not be read and {plural(records.length, 'is', 'are')}{' '}
      left out: {records.map((record) => record.id ?? '?').join(', ')}
    </p>
  );
}
