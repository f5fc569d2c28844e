import { useEffect, useRef, useState } from 'react';
import { countOf } from '../../../../lib/format';
import { countJob } from './job';
import { whenReleased } from './job-lock';
import { jobStore } from './job-registry';
import type { JobElsewhere } from './use-bulk-jobs';

/** How often a job run by another tab is read again for its progress. */
const PROGRESS_EVERY_MS = 1000;

/**
 * Bulk edits another tab runs, with their progress; no resume or discard until that tab lets go.
 */
export function JobsElsewhere({
  jobs,
  onReleased,
}: {
  jobs: readonly JobElsewhere[];
  onReleased(jobId: string): void;
}) {
  return jobs.map((entry) => (
    <RunningElsewhere key={entry.job.id} entry={entry} onReleased={onReleased} />
  ));
}

function RunningElsewhere({
  entry,
  onReleased,
}: {
  entry: JobElsewhere;
  onReleased(jobId: string): void;
}) {
  const id = entry.job.id;
  const [job, setJob] = useState(entry.job);
  const released = useRef(onReleased);
  useEffect(() => {
    released.current = onReleased;
  });
  useEffect(() => {
    const abort = new AbortController();
    const timer = setInterval(() => {
      jobStore()
        .get(id)
        .then((latest) => latest && setJob(latest))
        .catch(() => undefined); // the next read tries again
    }, PROGRESS_EVERY_MS);
    whenReleased(id, abort.signal).then(
      () => released.current(id),
      () => undefined, // left before the other tab let go
    );
    return () => {
      clearInterval(timer);
      abort.abort();
    };
  }, [id]);
  const counts = countJob(job);
  const answered = counts.done + counts.failed + counts.conflict;
  return (
    <div className="banner banner-info" role="region" aria-label="Bulk edit running in another tab">
      <p>
        <strong>A bulk edit is running in another tab:</strong> {job.label}. {counts.done} of{' '}
        {countOf(counts.rows, 'row')} done, {counts.failed + counts.conflict} failed,{' '}
        {counts.pending} not sent yet.{' '}
        <progress value={answered} max={counts.rows} aria-label="Progress in the other tab" />
      </p>
      <p>
        Only that tab can pause, resume or discard it. Once it has finished there, or that tab is
        closed, it can be resumed or discarded here.
      </p>
      {entry.refused && (
        <p role="alert">
          It was left as it is: the other tab took it up first and is applying it now.
        </p>
      )}
    </div>
  );
}
