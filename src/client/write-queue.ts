import { ApiError, CLIENT_ERROR_CODES } from './api-error';
import { Listeners } from './listeners';

export type WriteStatus = 'pending' | 'running' | 'done' | 'failed' | 'cancelled';

/** One write of a queue and, once settled, its outcome. */
export interface WriteItem<Op, R> {
  /** Unique within the queue (given, or generated). */
  id: string;
  op: Op;
  /** Items with the same key run one after another, in the order added (e.g. a listing id). */
  key: string | undefined;
  /** The `Idempotency-Key` of this logical write, the same on every retry. */
  idempotencyKey: string;
  status: WriteStatus;
  result?: R;
  error?: ApiError;
}

export interface WriteProgress<Op, R> {
  total: number;
  pending: number;
  running: number;
  done: number;
  failed: number;
  cancelled: number;
  paused: boolean;
  /** The item whose change caused this event (absent for pause/resume). */
  item?: WriteItem<Op, R>;
}

export interface WriteQueueOptions {
  /** Writes run at once (default 4; the pacer bounds requests in flight as well). */
  concurrency?: number;
  newKey: () => string;
}

export type WriteRunner<Op, R> = (op: Op, context: { idempotencyKey: string }) => Promise<R>;

/** Runs writes with bounded concurrency, one `Idempotency-Key` each; never abandons one. */
export class WriteQueue<Op, R> {
  private readonly items: WriteItem<Op, R>[] = [];
  private readonly listeners = new Listeners<[WriteProgress<Op, R>]>();
  private readonly runningKeys = new Set<string>();
  private readonly concurrency: number;
  private readonly newKey: () => string;
  private running = 0;
  private paused = false;
  private counter = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly runner: WriteRunner<Op, R>,
    options: WriteQueueOptions,
  ) {
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.newKey = options.newKey;
  }

  /** Adds writes; `keyOf` chains, `idOf` names, `idempotencyKeyOf` reuses a restored key. */
  add(
    ops: readonly Op[],
    options: {
      keyOf?: (op: Op) => string | undefined;
      idOf?: (op: Op) => string;
      idempotencyKeyOf?: (op: Op) => string | undefined;
    } = {},
  ): WriteItem<Op, R>[] {
    const added = ops.map((op) => {
      const item: WriteItem<Op, R> = {
        id: options.idOf?.(op) ?? `w${++this.counter}`,
        op,
        key: options.keyOf?.(op),
        idempotencyKey: options.idempotencyKeyOf?.(op) ?? this.newKey(),
        status: 'pending',
      };
      this.items.push(item);
      return item;
    });
    this.emit(undefined);
    this.pump();
    return added;
  }

  /** Every item, in the order added. */
  list(): readonly WriteItem<Op, R>[] {
    return this.items;
  }

  progress(item?: WriteItem<Op, R>): WriteProgress<Op, R> {
    const count = (status: WriteStatus) => this.items.filter((i) => i.status === status).length;
    return {
      total: this.items.length,
      pending: count('pending'),
      running: count('running'),
      done: count('done'),
      failed: count('failed'),
      cancelled: count('cancelled'),
      paused: this.paused,
      ...(item ? { item } : {}),
    };
  }

  /** Called on every item change and on pause/resume. */
  readonly subscribe = this.listeners.subscribe;

  pause(): void {
    this.paused = true;
    this.emit(undefined);
  }

  resume(): void {
    this.paused = false;
    this.emit(undefined);
    this.pump();
  }

  /** Cancels the given pending items (all pending items when no ids are given). */
  cancel(ids?: readonly string[]): void {
    const wanted = ids ? new Set(ids) : undefined;
    for (const item of this.items) {
      if (item.status !== 'pending' || (wanted && !wanted.has(item.id))) continue;
      item.status = 'cancelled';
      item.error = new ApiError({
        status: 0,
        code: CLIENT_ERROR_CODES.cancelled,
        message: 'Cancelled before it was sent',
      });
      this.emit(item);
    }
    this.checkIdle();
  }

  /** Runs failed items again under the same `Idempotency-Key`; returns those requeued. */
  retryFailed(): WriteItem<Op, R>[] {
    const again = this.items.filter((i) => i.status === 'failed');
    for (const item of again) {
      item.status = 'pending';
      delete item.error;
      this.emit(item);
    }
    this.pump();
    return again;
  }

  /** Resolves when nothing is pending or running (a paused queue with pending items waits). */
  settled(): Promise<readonly WriteItem<Op, R>[]> {
    if (this.isIdle()) return Promise.resolve(this.items);
    return new Promise((resolve) => this.idleWaiters.push(() => resolve(this.items)));
  }

  private isIdle(): boolean {
    return this.running === 0 && !this.items.some((i) => i.status === 'pending');
  }

  private checkIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private emit(item: WriteItem<Op, R> | undefined): void {
    if (this.listeners.size === 0) return;
    this.listeners.tell(this.progress(item));
  }

  private next(): WriteItem<Op, R> | undefined {
    const blocked = new Set(this.runningKeys);
    for (const item of this.items) {
      if (item.status !== 'pending') continue;
      if (item.key === undefined) return item;
      if (!blocked.has(item.key)) return item;
      blocked.add(item.key);
    }
    return undefined;
  }

  private pump(): void {
    while (!this.paused && this.running < this.concurrency) {
      const item = this.next();
      if (!item) break;
      void this.run(item);
    }
    this.checkIdle();
  }

  private async run(item: WriteItem<Op, R>): Promise<void> {
    item.status = 'running';
    this.running++;
    if (item.key !== undefined) this.runningKeys.add(item.key);
    this.emit(item);
    try {
      item.result = await this.runner(item.op, { idempotencyKey: item.idempotencyKey });
      item.status = 'done';
    } catch (error) {
      item.status = 'failed';
      item.error =
        error instanceof ApiError
          ? error
          : new ApiError({
              status: 0,
              code: CLIENT_ERROR_CODES.badResponse,
              message: error instanceof Error ? error.message : String(error),
              cause: error,
            });
    } finally {
      this.running--;
      if (item.key !== undefined) this.runningKeys.delete(item.key);
    }
    this.emit(item);
    this.pump();
  }
}
