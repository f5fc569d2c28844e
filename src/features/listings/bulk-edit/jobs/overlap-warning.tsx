import { useState } from 'react';
import { countOf } from '../../../../lib/format';
import { isResumable, type BulkJob, type JobRow } from './job';
import { jobStore } from './job-store';

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

interface Clash {
  job: BulkJob;
  rows: JobRow[];
}

/** Names listings that jobs under way have yet to write; the seller leaves them out or not. */
export function useOverlapGuard(start: (job: BulkJob) => void) {
  const [clash, setClash] = useState<Clash | null>(null);
  const apply = async (job: BulkJob) => {
    const others = await jobStore()
      .list()
      .catch(() => [] as BulkJob[]); // no store: nothing to compare with
    const rows = overlapping(job, others);
    if (rows.length === 0) start(job);
    else setClash({ job, rows });
  };
  const choose = (job: BulkJob | null) => {
    setClash(null);
    if (job) start(job);
  };
  return { apply, clash, choose };
}

export function OverlapWarning({ guard }: { guard: ReturnType<typeof useOverlapGuard> }) {
  const { clash, choose } = guard;
  if (!clash) return null;
  const { job, rows } = clash;
  const rest = job.rows.length - rows.length;
  return (
    <div className="banner banner-warn" role="region" aria-label="Listings in another bulk edit">
      <p>
        <strong>
          {countOf(rows.length, 'listing')} of this edit {rows.length === 1 ? 'is' : 'are'} still to
          be changed by another bulk edit under way.
        </strong>{' '}
        Whichever edit writes last wins.
      </p>
      <ul>
        {rows.map((row) => (
          <li key={row.listingId}>
            {row.title} ({row.listingId})
          </li>
        ))}
      </ul>
      <div className="button-row">
        {rest > 0 && (
          <button
            type="button"
            className="primary"
            onClick={() => choose(leavingOut(job, new Set(rows.map((row) => row.listingId))))}
          >
            Leave them out and apply {countOf(rest, 'listing')}
          </button>
        )}
        <button type="button" onClick={() => choose(job)}>
          Apply all {countOf(job.rows.length, 'listing')}
        </button>
        <button type="button" onClick={() => choose(null)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
