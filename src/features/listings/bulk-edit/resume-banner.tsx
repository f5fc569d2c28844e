import { countJob, type BulkJob } from './jobs/job';
import { countOf } from '../../../lib/format';

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
  const counts = countJob(job);
  return (
    <div className="banner banner-info" role="region" aria-label="Unfinished bulk edit">
      <p>
        <strong>An unfinished bulk edit:</strong> {job.label}. {counts.done} of{' '}
        {countOf(counts.rows, 'row')}
        done, {counts.failed + counts.conflict} failed, {counts.pending} not sent yet. Resuming
        sends each remaining write with the key it was given, so nothing is applied twice.
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
