import {
  isApiError,
  newIdempotencyKey,
  type ApiError,
  type ListingDeleted,
  type ListingUpdated,
  type ListingWrite,
  type ListingWriteQueue,
  type ListingWriteResult,
  type SlabdeskClient,
  type WriteItem,
  type WriteProgress,
} from '../../../../client';
import { Listeners } from '../../../../client/listeners';
import { listingWriteQueue } from '../../../../client/listing-write-queue';
import { estimateSeconds } from '../logic/estimate';
import {
  countJob,
  type BulkJob,
  type JobCounts,
  type JobRow,
  type JobState,
  type JobWrite,
} from './job';
import type { JobStore } from './job-store';
import { soldMeanwhile } from '../../../../api/listings/live-sales';
import type { ListingWriteAnswer } from '../../../../api/listings/write-answer';

/** The code of a write taken out of a job because its card sold while the job ran. */
export const SOLD_MEANWHILE = 'sold_meanwhile';

export type RunnerState = 'idle' | 'running' | 'pausing' | 'paused' | 'cancelled' | 'finished';

/** A run that will send nothing more unless the seller retries or starts it again. */
export const runEnded = (state: RunnerState): boolean =>
  state === 'finished' || state === 'cancelled';

export interface RunnerProgress extends JobCounts {
  state: RunnerState;
  /** Seconds the bucket needs for the writes left, from its level now. */
  secondsLeft: number;
}

/** What a landed write said, for the caller to update its cache row by row. */
export type WriteResult = Exclude<ListingWriteAnswer, { method: 'POST' }>;

/** A failure that says nothing about whether the write happened: retried with the same key. */
const isUnsettled = (status: number) => status === 0 || status === 429 || status >= 500;

/** Sends a job through the write queue with its keys, saving rows as they land: resumable, never twice. */
export class JobRunner {
  readonly job: BulkJob;
  private readonly client: SlabdeskClient;
  private readonly store: JobStore;
  private readonly concurrency: number;
  private readonly onWrite: ((result: WriteResult) => void) | undefined;
  private state: RunnerState = 'idle';
  private queue: ListingWriteQueue | undefined;
  /** The row and write behind each queue item. */
  private readonly items = new Map<string, { row: JobRow; write: JobWrite }>();
  private itemCounter = 0;
  private run: Promise<void> | undefined;
  private settleRun: (() => void) | undefined;
  /** Store writes, one after another, so a row's last state is the one kept. */
  private saving: Promise<void> = Promise.resolve();
  private readonly listeners = new Listeners();
  private progress: RunnerProgress;
  private unsubscribes: (() => void)[] = [];

  constructor(options: {
    client: SlabdeskClient;
    store: JobStore;
    job: BulkJob;
    /** Writes the client's queue runs at once; its pacer decides when each goes (default 4). */
    concurrency?: number;
    onWrite?: (result: WriteResult) => void;
  }) {
    this.job = options.job;
    this.client = options.client;
    this.store = options.store;
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.onWrite = options.onWrite;
    this.progress = this.compute();
  }

  /** The progress now; the same object until something changes (for useSyncExternalStore). */
  getProgress = (): RunnerProgress => this.progress;

  subscribe = this.listeners.subscribe;

  private changed(): void {
    this.progress = this.compute();
    this.listeners.tell();
  }

  private compute(): RunnerProgress {
    const counts = countJob(this.job);
    const bucket = this.client.transport.pacer.snapshot();
    return {
      ...counts,
      state: this.state,
      secondsLeft: estimateSeconds(counts.writesLeft, bucket),
    };
  }

  private save(row: JobRow): void {
    const copy = structuredClone(row);
    this.saving = this.saving.then(() => this.store.saveRow(this.job.id, copy));
  }

  private setStoredState(state: JobState): Promise<void> {
    this.job.state = state;
    this.saving = this.saving.then(() => this.store.setState(this.job.id, state));
    return this.saving;
  }

  private ensureQueue(): ListingWriteQueue {
    if (!this.queue) {
      this.queue = listingWriteQueue(this.client, {
        concurrency: this.concurrency,
        // The server's activity log files each write under its job.
        headers: { 'X-Slabdesk-Bulk-Job': this.job.id },
        // A card that sold while the job ran: its write is taken out unsent and reported.
        skip: (op) => (op.kind !== 'create' && soldMeanwhile(op.id) ? SOLD_MEANWHILE : undefined),
      });
      this.unsubscribes.push(this.queue.subscribe((progress) => this.onQueue(progress)));
      this.unsubscribes.push(this.client.transport.subscribe(() => this.changed()));
    }
    return this.queue;
  }

  /** Queues every write not yet done of every pending row, each with its own key. */
  private enqueuePending(queue: ListingWriteQueue): void {
    const queued = new Set([...this.items.values()].map((entry) => entry.write));
    const ops = new Map<ListingWrite, { id: string; key: string; listing: string }>();
    for (const row of this.job.rows) {
      if (row.outcome.state !== 'pending') continue;
      for (const write of row.writes) {
        if (write.done || queued.has(write)) continue;
        const id = `r${row.index}-${++this.itemCounter}`;
        this.items.set(id, { row, write });
        const op: ListingWrite =
          write.method === 'PUT'
            ? { kind: 'update', id: row.listingId, patch: write.body ?? {} }
            : { kind: 'delete', id: row.listingId };
        ops.set(op, { id, key: write.key, listing: row.listingId });
      }
    }
    if (ops.size === 0) return;
    queue.add([...ops.keys()], {
      keyOf: (op) => ops.get(op)!.listing,
      idOf: (op) => ops.get(op)!.id,
      idempotencyKeyOf: (op) => ops.get(op)!.key,
    });
  }

  /** Starts (or resumes) sending every pending row; resolves when the run stops. */
  start(): Promise<void> {
    if (this.state === 'running' || this.state === 'pausing') return this.run ?? Promise.resolve();
    if (this.state === 'cancelled') return Promise.resolve();
    const queue = this.ensureQueue();
    this.state = 'running';
    this.run = new Promise<void>((resolve) => {
      this.settleRun = resolve;
    });
    void this.setStoredState('running');
    this.enqueuePending(queue);
    if (queue.progress().paused) queue.resume();
    this.changed();
    this.checkIdle();
    return this.run;
  }

  /** Starts nothing new; resolves once the writes already started have answered. */
  async pause(): Promise<void> {
    if (this.state !== 'running') return;
    this.state = 'pausing';
    this.queue?.pause();
    this.changed();
    this.checkIdle();
    await this.run;
  }

  resume(): Promise<void> {
    return this.start();
  }

  /** Stops for good: the rows not sent stay unsent and are not offered for resume. */
  async cancel(): Promise<void> {
    const active = this.state === 'running' || this.state === 'pausing';
    this.state = 'cancelled';
    this.queue?.cancel();
    this.changed();
    if (active) {
      this.checkIdle();
      await this.run;
    } else {
      await this.setStoredState('cancelled');
    }
  }

  /** Resends failed rows: a refused write gets a new key, an unknown fate keeps its own. */
  async retryFailed(): Promise<number> {
    if (this.state === 'running' || this.state === 'pausing') return 0;
    let count = 0;
    for (const row of this.job.rows) {
      const outcome = row.outcome;
      if (outcome.state !== 'failed') continue;
      const fresh = !isUnsettled(outcome.status);
      row.writes = row.writes.map((w) =>
        w.done || !fresh ? w : { ...w, key: newIdempotencyKey() },
      );
      row.outcome = { state: 'pending' };
      row.retries += 1;
      this.save(row);
      count++;
    }
    await this.saving;
    if (count > 0) {
      this.state = 'idle';
      void this.start();
    }
    return count;
  }

  /** Detaches from the client (a run in progress should be paused or cancelled first). */
  dispose(): void {
    for (const unsubscribe of this.unsubscribes) unsubscribe();
    this.unsubscribes = [];
  }

  private onQueue(progress: WriteProgress<ListingWrite, ListingWriteResult>): void {
    const item = progress.item;
    if (
      item &&
      (item.status === 'done' || item.status === 'failed' || item.status === 'cancelled')
    ) {
      this.settleItem(item);
    }
    this.changed();
    this.checkIdle();
  }

  private settleItem(item: WriteItem<ListingWrite, ListingWriteResult>): void {
    const entry = this.items.get(item.id);
    if (!entry) return;
    this.items.delete(item.id);
    const { row, write } = entry;
    if (item.status === 'cancelled') return; // not sent: the row stays as it was
    const error = item.error;
    const landed =
      item.status === 'done' ||
      // A 2xx whose record came back degraded: the write landed; only its echo is missing.
      (error?.code === 'degraded_record' && error.status >= 200 && error.status < 300);
    if (landed) {
      write.done = true;
      if (item.status === 'done' && item.result) {
        this.onWrite?.(
          write.method === 'PUT'
            ? {
                method: 'PUT',
                listingId: row.listingId,
                body: write.body,
                listing: item.result as ListingUpdated,
              }
            : {
                method: 'DELETE',
                listingId: row.listingId,
                listing: item.result as ListingDeleted,
              },
        );
      }
      if (row.writes.every((w) => w.done)) row.outcome = { state: 'done', at: Date.now() };
      this.save(row);
      return;
    }
    this.fail(row, error);
  }

  private fail(row: JobRow, error: ApiError | undefined): void {
    const code = error?.code ?? 'unexpected_error';
    row.outcome = {
      state: code === 'listing_write_conflict' || code === SOLD_MEANWHILE ? 'conflict' : 'failed',
      at: Date.now(),
      status: error?.status ?? 0,
      code,
      message: error?.message ?? 'The write failed',
      requestId: error?.requestId,
      fieldErrors: isApiError(error) ? error.fieldErrors : {},
    };
    // The row's later writes (a DELETE after its PUT) are not sent.
    const later = [...this.items.entries()].filter(([, entry]) => entry.row === row);
    for (const [id] of later) this.items.delete(id);
    this.queue?.cancel(later.map(([id]) => id));
    this.save(row);
  }

  /** Ends the run when nothing is running and nothing more will start. */
  private checkIdle(): void {
    if (!this.queue || !this.settleRun) return;
    const progress = this.queue.progress();
    if (progress.running > 0) return;
    const stopping = this.state === 'pausing' || this.state === 'cancelled';
    if (!stopping && progress.pending > 0) return;
    const resolve = this.settleRun;
    this.settleRun = undefined;
    if (this.state === 'pausing') this.state = 'paused';
    else if (this.state !== 'cancelled') this.state = 'finished';
    const next = this.state as JobState;
    void this.setStoredState(next).then(() => {
      this.changed();
      resolve();
    });
  }
}
