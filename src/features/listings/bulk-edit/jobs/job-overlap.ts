import { countOf } from '../../../../lib/format';
import { isResumable, type BulkJob, type JobRow } from './job';

/** The rows of `job` whose listings another unfinished job still has to write. */
export function overlapping(job: BulkJob, others: readonly BulkJob[]): JobRow[] {
  const busy = new Set<string>();
  for (const other of others) {
    if (other.id === job.id || !isResumable(other)) continue;
    for (const row of other.rows) if (row.outcome.state === 'pending') busy.add(row.listingId);
  }
  return job.rows.filter((row) => busy.has(row.listingId));
}

/** The job without the given listings' rows (renumbered: a row's index is its key in the store). */
export function leavingOut(job: BulkJob, listingIds: ReadonlySet<string>): BulkJob {
  return {
    ...job,
    label: `${job.label}, ${countOf(listingIds.size, 'listing')} left out`,
    rows: job.rows
      .filter((row) => !listingIds.has(row.listingId))
      .map((row, index) => ({ ...row, index })),
  };
}
