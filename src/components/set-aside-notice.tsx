import type { SetAsideRecord } from '../client';
import { countOf, plural } from '../lib/format';

/**
 * The records of a list that could not be read (degraded by the service, or not in the shape the
 * contract documents), named by id, so that "N of N" never hides one. Every page that lists
 * records shows its set-aside records with this.
 */
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
