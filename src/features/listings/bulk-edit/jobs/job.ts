import { newIdempotencyKey, type ListingUpdateInput } from '../../../../client';
import { countOf } from '../../../../lib/format';
import type { Plan, PlannedWrite } from '../logic/diff';

/** One request of a job, with the Idempotency-Key it is sent with on every try. */
export interface JobWrite {
  method: 'PUT' | 'DELETE';
  body?: ListingUpdateInput | undefined;
  key: string;
  /** True once the API answered it with a 2xx. */
  done: boolean;
}

export type RowOutcome =
  | { state: 'pending' }
  | { state: 'done'; at: number }
  | {
      /** `conflict`: the listing sold (or changed) meanwhile; `failed`: any other refusal. */
      state: 'failed' | 'conflict';
      at: number;
      status: number;
      code: string;
      message: string;
      requestId: string | undefined;
      /** A 422's field messages. */
      fieldErrors: Record<string, string[]>;
    };

export interface JobRow {
  /** Its key in the store, with the job id. */
  index: number;
  listingId: string;
  title: string;
  writes: JobWrite[];
  outcome: RowOutcome;
  /** How many times the failed row was retried (each retry uses fresh keys). */
  retries: number;
}

export type JobState = 'running' | 'paused' | 'cancelled' | 'finished';

export interface BulkJob {
  id: string;
  createdAt: number;
  updatedAt: number;
  state: JobState;
  /** What the seller asked for, in words ("Bulk edit of 212 listings"). */
  label: string;
  rows: JobRow[];
}

/** A job made from a plan: every write gets its Idempotency-Key now, before anything is sent. */
export function jobFromPlan(plan: Plan, label: string, now = Date.now()): BulkJob {
  return {
    id: newIdempotencyKey(),
    createdAt: now,
    updatedAt: now,
    state: 'running',
    label,
    rows: plan.items
      .filter((item) => item.writes.length > 0)
      .map((item, index) => ({
        index,
        listingId: item.id,
        title: item.title,
        writes: item.writes.map((write: PlannedWrite) => ({
          method: write.method,
          body: write.body,
          key: newIdempotencyKey(),
          done: false,
        })),
        outcome: { state: 'pending' },
        retries: 0,
      })),
  };
}

export type JobCounts = ReturnType<typeof countJob>;

export function countJob(job: Pick<BulkJob, 'rows'>) {
  const rows = { rows: job.rows.length, done: 0, failed: 0, conflict: 0, pending: 0 };
  const counts = { ...rows, writes: 0, writesDone: 0, writesLeft: 0 };
  for (const row of job.rows) {
    counts[row.outcome.state] += 1;
    for (const write of row.writes) {
      counts.writes += 1;
      if (write.done) counts.writesDone += 1;
      else if (row.outcome.state === 'pending') counts.writesLeft += 1;
    }
  }
  return counts;
}

/** A job a reload should offer to resume: not finished or cancelled, with rows still to send. */
export function isResumable(job: BulkJob): boolean {
  return (
    (job.state === 'running' || job.state === 'paused') &&
    job.rows.some((row) => row.outcome.state === 'pending')
  );
}

/** "3 of 12 rows done, 1 failed, 8 not sent yet" */
export function jobCountWords(job: Pick<BulkJob, 'rows'>): string {
  const counts = countJob(job);
  return `${counts.done} of ${countOf(counts.rows, 'row')} done, ${counts.failed + counts.conflict} failed, ${counts.pending} not sent yet`;
}
