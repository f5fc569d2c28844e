import {
  CLIENT_ERROR_CODES,
  isApiError,
  newIdempotencyKey,
  type ListingDeleted,
  type ListingUpdated,
  type SlabdeskClient,
} from '../../../client';
import { estimateSeconds } from '../logic/estimate';
import { countJob, type BulkJob, type JobCounts, type JobRow, type JobWrite } from './job';
import type { JobStore } from './job-store';

export type RunnerState = 'idle' | 'running' | 'pausing' | 'paused' | 'cancelled' | 'finished';

export interface RunnerProgress extends JobCounts {
  state: RunnerState;
  /** Writes answered per second over the last 10 seconds. */
  rate: number;
  /** Seconds the bucket needs for the writes left, from its level now. */
  secondsLeft: number;
}

/** What a landed write said, for the caller to update its cache row by row. */
export type WriteResult =
  | { method: 'PUT'; listingId: string; write: JobWrite; listing: ListingUpdated }
  | { method: 'DELETE'; listingId: string; write: JobWrite; listing: ListingDeleted };

export interface RunnerOptions {
  client: SlabdeskClient;
  store: JobStore;
  job: BulkJob;
  /** Rows worked on at once; the client's pacer decides when each request goes (default 6). */
  workers?: number;
  onWrite?: (result: WriteResult) => void;
}

/** A failure that says nothing about the write's fate: the same key is used again later. */
function isUnsettled(error: unknown): boolean {
  if (!isApiError(error)) return true;
  return (
    error.code === CLIENT_ERROR_CODES.aborted ||
    error.code === CLIENT_ERROR_CODES.network ||
    error.code === CLIENT_ERROR_CODES.timeout ||
    error.status === 429 ||
    error.status >= 500
  );
}

/**
 * Applies a bulk-edit job through the client: each row's writes in order (a PUT of its changed
 * fields, then a DELETE when it is deactivated), many rows at once, every request paced by the
 * client's bucket model and sent with the write's own Idempotency-Key. Each row is saved to the
 * store as it lands, so a reload resumes with the same keys and skips what is done: no write is
 * sent twice. Pause and cancel abort what is waiting for the bucket; a request that was already
 * on the wire keeps its key, so its retry is a replay.
 */
export class JobRunner {
  readonly job: BulkJob;
  private readonly client: SlabdeskClient;
  private readonly store: JobStore;
  private readonly workers: number;
  private readonly onWrite: ((result: WriteResult) => void) | undefined;
  private state: RunnerState = 'idle';
  private controller: AbortController | undefined;
  private run: Promise<void> | undefined;
  private readonly answered: number[] = [];
  private readonly listeners = new Set<() => void>();
  private progress: RunnerProgress;
  private unsubscribeBucket: (() => void) | undefined;

  constructor(options: RunnerOptions) {
    this.job = options.job;
    this.client = options.client;
    this.store = options.store;
    this.workers = Math.max(1, options.workers ?? 6);
    this.onWrite = options.onWrite;
    this.progress = this.compute();
  }

  /** The progress now; the same object until something changes (for useSyncExternalStore). */
  getProgress = (): RunnerProgress => this.progress;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  private changed(): void {
    this.progress = this.compute();
    for (const listener of this.listeners) listener();
  }

  private compute(): RunnerProgress {
    const counts = countJob(this.job);
    const now = Date.now();
    while (this.answered.length > 0 && this.answered[0]! < now - 10_000) this.answered.shift();
    const first = this.answered[0];
    const span = first === undefined ? 0 : Math.max(1, (now - first) / 1000);
    const bucket = this.client.transport.pacer.snapshot();
    return {
      ...counts,
      state: this.state,
      rate: span > 0 ? this.answered.length / span : 0,
      secondsLeft: estimateSeconds(counts.writesLeft, bucket),
    };
  }

  /** Starts (or resumes) sending every pending row; resolves when the run stops. */
  start(): Promise<void> {
    if (this.state === 'running' || this.state === 'pausing') return this.run ?? Promise.resolve();
    if (this.state === 'cancelled') return Promise.resolve();
    this.state = 'running';
    this.job.state = 'running';
    this.controller = new AbortController();
    const signal = this.controller.signal;
    this.unsubscribeBucket ??= this.client.transport.subscribe(() => this.changed());
    this.changed();
    this.run = (async () => {
      await this.store.setState(this.job.id, 'running');
      const queue = this.job.rows.filter((row) => row.outcome.state === 'pending');
      const work = async () => {
        for (let row = queue.shift(); row; row = queue.shift()) {
          if (signal.aborted) return;
          await this.applyRow(row, signal);
        }
      };
      await Promise.all(Array.from({ length: this.workers }, work));
      if (this.state === 'cancelled') {
        await this.store.setState(this.job.id, 'cancelled');
      } else if (signal.aborted) {
        this.state = 'paused';
        this.job.state = 'paused';
        await this.store.setState(this.job.id, 'paused');
      } else {
        this.state = 'finished';
        this.job.state = 'finished';
        await this.store.setState(this.job.id, 'finished');
      }
      this.changed();
    })();
    return this.run;
  }

  /** Stops sending; what is waiting for the bucket stays pending with its keys. */
  async pause(): Promise<void> {
    if (this.state !== 'running') return;
    this.state = 'pausing';
    this.changed();
    this.controller?.abort();
    await this.run;
  }

  resume(): Promise<void> {
    return this.start();
  }

  /** Stops for good: the rows not sent stay pending and are not offered for resume. */
  async cancel(): Promise<void> {
    const wasRunning = this.state === 'running' || this.state === 'pausing';
    this.state = 'cancelled';
    this.job.state = 'cancelled';
    this.controller?.abort();
    if (wasRunning) await this.run;
    else await this.store.setState(this.job.id, 'cancelled');
    this.changed();
  }

  /**
   * Sends the failed rows again (not the conflicts: a sold listing stays sold), each with fresh
   * Idempotency-Keys for its writes not yet done (the old keys would replay the refusal). The
   * new keys are saved before anything is sent.
   */
  async retryFailed(): Promise<number> {
    if (this.state === 'running' || this.state === 'pausing') return 0;
    let count = 0;
    for (const row of this.job.rows) {
      if (row.outcome.state !== 'failed') continue;
      row.writes = row.writes.map((w) => (w.done ? w : { ...w, key: newIdempotencyKey() }));
      row.outcome = { state: 'pending' };
      row.retries += 1;
      await this.store.saveRow(this.job.id, row);
      count++;
    }
    if (count > 0) {
      this.state = 'idle';
      void this.start();
    }
    return count;
  }

  /** Detaches from the client's state (the run itself is stopped with pause or cancel). */
  dispose(): void {
    this.unsubscribeBucket?.();
    this.unsubscribeBucket = undefined;
    this.listeners.clear();
  }

  private async applyRow(row: JobRow, signal: AbortSignal): Promise<void> {
    for (const write of row.writes) {
      if (write.done) continue;
      try {
        const options = { idempotencyKey: write.key, signal };
        if (write.method === 'PUT') {
          const { data } = await this.client.listings.update(
            row.listingId,
            write.body ?? {},
            options,
          );
          this.onWrite?.({ method: 'PUT', listingId: row.listingId, write, listing: data });
        } else {
          const { data } = await this.client.listings.delete(row.listingId, options);
          this.onWrite?.({ method: 'DELETE', listingId: row.listingId, write, listing: data });
        }
        write.done = true;
        this.answered.push(Date.now());
      } catch (error) {
        if (isApiError(error) && error.code === 'degraded_record' && error.status < 300) {
          // A 2xx whose record came back degraded: the write landed; only its echo is missing.
          write.done = true;
          this.answered.push(Date.now());
          await this.store.saveRow(this.job.id, row);
          this.changed();
          continue;
        }
        if (isUnsettled(error) && (signal.aborted || !isApiError(error) || error.status === 0)) {
          // Not known to have happened: stays pending with the same key.
          this.changed();
          return;
        }
        this.answered.push(Date.now());
        const apiError = isApiError(error) ? error : undefined;
        const code = apiError?.code ?? 'unexpected_error';
        row.outcome = {
          state: code === 'listing_write_conflict' ? 'conflict' : 'failed',
          at: Date.now(),
          status: apiError?.status ?? 0,
          code,
          message: error instanceof Error ? error.message : String(error),
          requestId: apiError?.requestId,
          fieldErrors: apiError?.fieldErrors ?? {},
        };
        await this.store.saveRow(this.job.id, row);
        this.changed();
        return;
      }
      await this.store.saveRow(this.job.id, row);
      this.changed();
    }
    row.outcome = { state: 'done', at: Date.now() };
    await this.store.saveRow(this.job.id, row);
    this.changed();
  }
}
