import { useEffect, useEffectEvent, useState } from 'react';
import { countJob, jobCountWords, type BulkJob } from './job';
import { whenReleased } from './job-lock';
import { jobStore } from './job-store';
import type { JobElsewhere } from './use-bulk-jobs';

/** How often a job run by another tab is read again for its progress. */
const PROGRESS_EVERY_MS = 1000;

/** A bulk edit another tab runs, with its progress; no resume or discard until that tab lets go. */
export function RunningElsewhere({
  entry,
  onReleased,
}: {
  entry: JobElsewhere;
  onReleased(jobId: string): void;
}) {
  const id = entry.job.id;
  const [job, setJob] = useState(entry.job);
  const released = useEffectEvent(onReleased);
  useEffect(() => {
    const abort = new AbortController();
    const timer = setInterval(() => {
      jobStore()
        .get(id)
        .then((latest) => latest && setJob(latest))
        .catch(() => undefined); // the next read tries again
    }, PROGRESS_EVERY_MS);
    whenReleased(id, abort.signal).then(
      () => released(id),
      () => undefined, // left before the other tab let go
    );
    return () => {
      clearInterval(timer);
      abort.abort();
    };
  }, [id]);
  const counts = countJob(job);
  return (
    <div className="banner banner-info" role="region" aria-label="Bulk edit running in another tab">
      <p>
        <strong>A bulk edit is running in another tab:</strong> {job.label}. {jobCountWords(job)}.{' '}
        <progress
          value={counts.rows - counts.pending}
          max={counts.rows}
          aria-label="Progress in the other tab"
        />
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

/** A job a reload left unfinished, offered for resuming (its keys make a resume safe). */
export function ResumeBanner({
  job,
  onResume,
  onDiscard,
}: {
  job: BulkJob;
  onResume(): void;
  onDiscard(): void;
}) {
  return (
    <div className="banner banner-info" role="region" aria-label="Unfinished bulk edit">
      <p>
        <strong>An unfinished bulk edit:</strong> {job.label}. {jobCountWords(job)}. Resuming sends
        each remaining write with the key it was given, so nothing is applied twice.
      </p>
      <div className="button-row">
        <button type="button" className="primary" onClick={onResume}>
          Resume
        </button>
        <button type="button" onClick={onDiscard}>
          Discard
        </button>
      </div>
    </div>
  );
}
