import { useEffect, useSyncExternalStore } from 'react';
import { useNavigation } from 'react-router';
import { DataTable, type Column } from '../../../components/data-table';
import type { JobRow } from './jobs/job';
import { runEnded, SOLD_MEANWHILE, type JobRunner, type RunnerProgress } from './jobs/job-runner';
import { sawEnd } from './jobs/use-bulk-jobs';
import { useApiClient } from '../../../api/api-context';
import { countOf } from '../../../lib/format';
import { marketplaceSays } from '../../../lib/error-words';

/** Time left as a seller says it: "less than a minute", "about 3 minutes", "about 1 hour 5 minutes". */
export function timeLeftWords(seconds: number): string {
  if (!Number.isFinite(seconds)) return 'time left not known yet';
  if (seconds < 60) return 'less than a minute left';
  const minutes = Math.ceil(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `about ${countOf(minutes, 'minute')} left`;
  return `about ${countOf(hours, 'hour')}${rest > 0 ? ` ${countOf(rest, 'minute')}` : ''} left`;
}

/** A run's progress in words ("3 of 120 saved · about 1 minute left"), never a rate of writes. */
export function progressWords(progress: RunnerProgress): string {
  const parts = [`${progress.done} of ${progress.rows} saved`];
  if (progress.failed > 0) parts.push(`${progress.failed} not saved`);
  if (progress.conflict > 0) parts.push(`${progress.conflict} sold or changed meanwhile`);
  const running = progress.state === 'running' || progress.state === 'pausing';
  if (!running && progress.pending > 0) parts.push(`${progress.pending} not sent yet`);
  const line = parts.join(', ');
  return running ? `${line} · ${timeLeftWords(progress.secondsLeft)}` : line;
}

/** The row's outcome in words; a refusal's code and request id wait behind "Details". */
function outcomeText(row: JobRow): string {
  const outcome = row.outcome;
  switch (outcome.state) {
    case 'pending':
      return row.writes.some((w) => w.done) ? 'Partly sent, waiting' : 'Waiting';
    case 'done':
      return row.retries > 0 ? 'Done (after a retry)' : 'Done';
    case 'conflict':
      if (outcome.code === SOLD_MEANWHILE) return 'Sold meanwhile: not sent';
      return `Conflict: the listing sold or changed meanwhile. ${marketplaceSays(outcome.message)}`;
    case 'failed': {
      const fields = Object.entries(outcome.fieldErrors)
        .map(([field, messages]) => `${field.replace(/_/g, ' ')} ${messages.join(', ')}`)
        .join('; ');
      return `Failed: ${marketplaceSays(fields || outcome.message)}`;
    }
  }
}

function OutcomeCell({ row }: { row: JobRow }) {
  const outcome = row.outcome;
  const refused =
    (outcome.state === 'failed' || outcome.state === 'conflict') && outcome.code !== SOLD_MEANWHILE;
  return (
    <span className={`outcome outcome-${outcome.state}`} data-listing={row.listingId}>
      {outcomeText(row)}
      {refused && (
        <details className="error-details">
          <summary>Details</summary>
          Code <code>{outcome.code}</code>
          {outcome.requestId && (
            <>
              , request <code>{outcome.requestId}</code>
            </>
          )}
        </details>
      )}
    </span>
  );
}

const STATE_WORDS: Record<RunnerProgress['state'], string> = {
  idle: 'Ready',
  running: 'Applying',
  pausing: 'Pausing',
  paused: 'Paused',
  cancelled: 'Cancelled',
  finished: 'Finished',
};

const columns: Column<JobRow>[] = [
  { id: 'listing', header: 'Listing', width: '40%', cell: (row) => row.title },
  { id: 'outcome', header: 'Outcome', width: '60%', cell: (row) => <OutcomeCell row={row} /> },
];

/** The run of a job: progress, pause, resume, cancel, each row's outcome, retry of the failed rows. */
export function ApplyPanel({ runner, onClose }: { runner: JobRunner; onClose(): void }) {
  const progress = useSyncExternalStore(runner.subscribe, runner.getProgress, runner.getProgress);
  const client = useApiClient();
  const settled = progress.done + progress.failed + progress.conflict;
  const ended = runEnded(progress.state);
  // An end drawn while the seller is already on the way to another page was not seen: it is
  // shown on return (the old page stays up while the next one loads, on a busy machine seconds).
  const leaving = useNavigation().state !== 'idle';
  useEffect(() => {
    if (ended && !leaving) sawEnd(client, runner.job.id);
  }, [client, ended, leaving, runner]);
  const running = progress.state === 'running' || progress.state === 'pausing';
  return (
    <section className="bulk-apply panel" aria-labelledby="bulk-apply-heading">
      <h2 id="bulk-apply-heading">
        {STATE_WORDS[progress.state]}: {runner.job.label}
      </h2>
      <div className="load-progress">
        <label htmlFor="bulk-progress">Progress</label>{' '}
        <progress id="bulk-progress" value={settled} max={Math.max(1, progress.rows)} />
      </div>
      <p className="bulk-progress-text" role="status" aria-live="polite">
        {progressWords(progress)}
      </p>
      <div className="button-row">
        {running && (
          <button
            type="button"
            onClick={() => void runner.pause()}
            disabled={progress.state === 'pausing'}
          >
            Pause
          </button>
        )}
        {progress.state === 'paused' && (
          <button type="button" className="primary" onClick={() => void runner.resume()}>
            Resume
          </button>
        )}
        {(running || progress.state === 'paused') && (
          <button type="button" className="danger" onClick={() => void runner.cancel()}>
            Cancel
          </button>
        )}
        {!running && progress.failed > 0 && (
          <button type="button" onClick={() => void runner.retryFailed()}>
            Retry {countOf(progress.failed, 'failed row')}
          </button>
        )}
        {!running && (
          <button type="button" onClick={onClose}>
            Close
          </button>
        )}
      </div>
      {progress.state === 'cancelled' && progress.pending > 0 && (
        <p className="banner banner-warn">
          Cancelled: {countOf(progress.pending, 'row')} were not sent. Nothing else changed.
        </p>
      )}
      <DataTable
        caption="Outcome of each row"
        rows={runner.job.rows}
        columns={columns}
        getRowId={(row) => row.listingId}
        rowHeight={48}
        height={360}
      />
    </section>
  );
}
