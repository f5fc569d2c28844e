import { createHash } from 'node:crypto';
import { isApiError, type ApiError } from '../../client';
import type { ProxiedExchange, Upstream } from '../api-proxy';
import type { KeyGovernor } from '../governor/key-governor';
import { reportBackgroundError } from '../hub/background-error';
import { serverLog } from '../log';
import { serverClient } from '../governed-call';
import {
  PAGED_COLLECTIONS,
  storeWasReset,
  walkCollection,
  type PagedCollection,
  type WalkContext,
} from './collection-read';
import {
  listingWriteChange,
  proxiedWriteChange,
  rowChangeOf,
  type RowChange,
} from './delivery-rows';
import { REPLICA_COLLECTIONS, type ReplicaCollection, type ReplicaStore } from './replica-store';

/**
 * The hub's one replica of the seller's store: filled by a background walk through the governor,
 * kept current by verified deliveries (newest `updated_at` wins) and a reconciliation by
 * `updated_at_min` once an interval, walked again when the store's fingerprint changes (a reset).
 * Every background step is caught and logged; none throws.
 */

/** The governor's share of the replica's reads: a seller's click goes first. */
export const REPLICA_SHARE = 'server:replica';
/** The reconciliation's interval with a webhook registered: a safety net for missed deliveries. */
export const SAFETY_NET_MS = 15 * 60_000;
/** The reconciliation's interval with no webhook registered (`SLABDESK_RECONCILE_MINUTES`). */
export const DEFAULT_RECONCILE_MS = 60_000;
/** The first wait before a failed fill is tried again on its own (doubling per failure, capped). */
const [FILL_RETRY_MS, MAX_FILL_RETRY_MS] = [60_000, 30 * 60_000];

export interface ReplicaOptions {
  store: ReplicaStore;
  upstream: Upstream;
  governor: KeyGovernor | undefined;
  /** Whether deliveries are coming (a webhook registered or its secret configured). */
  webhooks: () => boolean;
  /** The reconciliation's interval without a webhook, and with one (the safety net's). */
  reconcileMs?: number;
  safetyNetMs?: number;
  /** The first fill at start (default), or at the first read (tests that count upstream calls). */
  fill?: 'at-start' | 'when-read';
  now?: () => number;
}

/** The replica could not be filled: nothing it holds may be read as the store. */
export class ReplicaNotReadyError extends Error {
  constructor(override readonly cause: unknown) {
    super('The replica has not been filled from the marketplace yet');
    this.name = 'ReplicaNotReadyError';
  }
}

export class Replica {
  readonly store: ReplicaStore;
  /** The background client, the store and the abort every walk reads with. */
  private readonly reads: WalkContext;
  private readonly now: () => number;
  private readonly abort = new AbortController();
  /** Every read runs in this one line, so two never race for a collection's baseline. */
  private line: Promise<unknown> = Promise.resolve();
  private pendingCatchUp: { collections: Set<PagedCollection>; work: Promise<void> } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private firstFill: Promise<void> | undefined;
  private lastFillError: unknown;
  /** Failed fills in a row, and when the next one may start on its own. */
  private fillFailures = 0;
  private fillRetryAt = 0;
  /** Collections the key may not read (403 `insufficient_scope`), with the refusal: held empty. */
  private readonly denied = new Map<ReplicaCollection, ApiError>();
  private closed = false;
  private fills = 0;
  private rounds = 0;
  private readonly listeners = new Set<(collection: ReplicaCollection) => void>();

  constructor(private readonly options: ReplicaOptions) {
    this.store = options.store;
    this.now = options.now ?? Date.now;
    this.reads = {
      client: serverClient(options.upstream, options.governor, {
        priority: 'background',
        share: REPLICA_SHARE,
      }),
      store: this.store,
      signal: this.abort.signal,
      now: this.now,
      tell: (collection) => this.tell(collection),
    };
    // Rows kept for another key or marketplace are not this one's: forgotten, the epoch goes up.
    const owner = createHash('sha256')
      .update(`${options.upstream.baseUrl}\n${options.upstream.apiKey}`)
      .digest('base64url');
    const kept = this.store.meta('owner');
    if (kept !== owner) {
      if (kept !== undefined) this.store.forgetAll();
      this.store.setMeta('owner', owner);
    }
  }

  /** Fills what was never filled, then reconciles once an interval. */
  start(): void {
    if ((this.options.fill ?? 'at-start') === 'at-start') this.begin();
  }

  /** Starts the first fill if none has started (a server that fills when first read). */
  begin(): void {
    if (this.firstFill || this.closed) return;
    this.firstFill = this.enqueue(() => this.fillMissing()).then(() => undefined);
    this.schedule();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.abort.abort();
    await this.line.catch(() => undefined);
  }

  /** Told the collection after rows of it changed (the rules' reader drops what it planned). */
  onChange(listener: (collection: ReplicaCollection) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once the collections (default: all) are filled, else rejects ReplicaNotReadyError. */
  async ready(
    collections: readonly ReplicaCollection[] = REPLICA_COLLECTIONS,
    options: { retryNow?: boolean } = {},
  ): Promise<void> {
    this.begin();
    await this.firstFill;
    if (this.filled(collections)) return;
    // A later try: once its wait after a failure is over, or at once when the seller asks.
    if (options.retryNow === true || this.now() >= this.fillRetryAt) {
      await this.enqueue(() => this.fillMissing());
    }
    if (!this.filled(collections)) throw new ReplicaNotReadyError(this.lastFillError);
  }

  /** Whether the collections (default: all) were filled, or are not the key's to read. */
  filled(collections: readonly ReplicaCollection[] = REPLICA_COLLECTIONS): boolean {
    return collections.every(
      (collection) => this.denied.has(collection) || this.store.state(collection).filled,
    );
  }

  /** The collections brought up to date now (no webhook): one read shared by every caller. */
  catchUp(collections: readonly PagedCollection[]): Promise<void> {
    const pending = this.pendingCatchUp;
    if (pending) {
      for (const collection of collections) pending.collections.add(collection);
      return pending.work;
    }
    const wanted = new Set(collections);
    const work = this.enqueue(async () => {
      this.pendingCatchUp = undefined;
      for (const collection of wanted) await this.walk(collection);
    }).then(() => undefined);
    this.pendingCatchUp = { collections: wanted, work };
    return work;
  }

  /** Why the last fill failed, until one succeeds. */
  fillFailure(): unknown {
    return this.lastFillError;
  }

  /** The marketplace's refusal of the collection to the key (held empty, not asked again). */
  refusal(collection: ReplicaCollection): ApiError | undefined {
    return this.denied.get(collection);
  }

  /** Whether deliveries keep the replica current (no catch-up needed for a click). */
  webhooks(): boolean {
    return this.options.webhooks();
  }

  /** A verified delivery: its row set newest-wins; an unknown listing is read by a catch-up. */
  applyDelivery(topic: string, payload: unknown): void {
    this.apply(`applying a ${topic} delivery`, () => rowChangeOf(topic, payload), [
      'inventory_items',
      'inventory_levels',
    ]);
  }

  /** A listing write's successful answer (the proxy's, a rule's), set on its row. */
  applyWriteAnswer(answer: unknown): void {
    this.apply('applying a write’s answer', () => listingWriteChange(answer), ['inventory_items']);
  }

  /** Sets a change on its row; one of a row not kept yet is read with `alsoRead` instead. */
  private apply(where: string, read: () => RowChange | null, alsoRead: PagedCollection[]): void {
    try {
      const change = read();
      if (!change) return;
      const { collection, id, fields, updatedAt } = change;
      const whole = collection === 'orders';
      const outcome = this.store.patch(collection, id, fields, { updatedAt, whole });
      if (outcome === 'unknown') void this.catchUp([collection, ...alsoRead]);
      else if (outcome.applied) this.tell(collection);
    } catch (error) {
      reportBackgroundError(`${where} to the replica`, error);
    }
  }

  /** The proxy's answer to a browser's call: a successful listing write is set on its row. */
  readonly observe = (exchange: ProxiedExchange): void =>
    this.apply('reading a write’s answer', () => proxiedWriteChange(exchange), ['inventory_items']);

  status() {
    const collections = Object.fromEntries(
      REPLICA_COLLECTIONS.map((collection) => {
        const { filled, syncedAt } = this.store.state(collection);
        const rows = this.store.count(collection);
        return [collection, { rows, filled, syncedAt, denied: this.denied.has(collection) }];
      }),
    );
    return {
      changeNumber: this.store.changeNumber(),
      epoch: Number(this.store.meta('epoch') ?? 0),
      collections,
      degraded: this.store.degraded(),
      // Full walks and reconciliation rounds since the server started.
      fills: this.fills,
      rounds: this.rounds,
    };
  }

  /** One reconciliation round now (tests; the timer runs the same). */
  round(): Promise<void> {
    return this.enqueue(() => this.reconcileAll()).then(() => undefined);
  }

  private tell(collection: ReplicaCollection): void {
    for (const listener of this.listeners) {
      try {
        listener(collection);
      } catch (error) {
        reportBackgroundError('telling a replica change', error);
      }
    }
  }

  /** Runs `task` after every read before it; never rejects (a failure is logged). */
  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.line.then(async () => {
      if (this.closed) return;
      try {
        await task();
      } catch (error) {
        if (!this.closed) reportBackgroundError('reading the store into the replica', error);
      }
    });
    this.line = run;
    return run;
  }

  private schedule(): void {
    if (this.closed) return;
    const interval = this.options.webhooks()
      ? (this.options.safetyNetMs ?? SAFETY_NET_MS)
      : (this.options.reconcileMs ?? DEFAULT_RECONCILE_MS);
    this.timer = setTimeout(() => {
      // An upstream that failed the fill is not walked again before its wait is over: judged when
      // the round's turn comes, since a fill still under way when the timer fires may yet fail.
      void this.enqueue(async () => {
        if (!this.filled() && this.now() < this.fillRetryAt) return;
        await this.reconcileAll();
      }).finally(() => this.schedule());
    }, interval);
    this.timer.unref?.();
  }

  /** Walks each collection not filled yet; a failure leaves the rest for the next try. */
  private async fillMissing(): Promise<void> {
    let failure: unknown;
    for (const collection of REPLICA_COLLECTIONS) {
      if (this.filled([collection])) continue;
      try {
        await this.walk(collection);
      } catch (error) {
        if (isApiError(error) && error.code === 'insufficient_scope') {
          serverLog.warn({ collection }, 'Replica: the key may not read this collection');
          this.denied.set(collection, error);
          continue;
        }
        if (this.closed) return;
        // The upstream failing: the rest wait for the next try rather than fail one by one.
        failure = error;
        break;
      }
    }
    if (failure !== undefined) {
      this.lastFillError = failure;
      // An upstream that fails the same way again is not walked every round: it waits longer.
      this.fillFailures++;
      this.fillRetryAt =
        this.now() + Math.min(MAX_FILL_RETRY_MS, FILL_RETRY_MS * 2 ** (this.fillFailures - 1));
      throw failure;
    }
    this.lastFillError = undefined;
    this.fillFailures = 0;
    this.fills++;
  }

  /** A whole walk when not filled, else a read of what changed since the last (a little before). */
  private walk(collection: ReplicaCollection): Promise<void> {
    return walkCollection(this.reads, collection);
  }

  /** The round: a reset store is walked again whole; otherwise each collection reconciled. */
  private async reconcileAll(): Promise<void> {
    this.rounds++;
    if (!this.filled()) {
      await this.fillMissing();
      return;
    }
    // The fingerprint is the oldest listing: a key that may not read listings has none.
    if (!this.denied.has('listings') && (await storeWasReset(this.reads))) {
      serverLog.warn('Replica: the store’s fingerprint changed (it was reset): walking it again');
      this.store.forgetAll();
      for (const collection of REPLICA_COLLECTIONS) this.tell(collection);
      await this.fillMissing();
      return;
    }
    for (const collection of PAGED_COLLECTIONS) {
      if (this.denied.has(collection)) continue;
      try {
        await this.walk(collection);
      } catch (error) {
        // One collection's failure does not hold the others.
        if (!this.closed) reportBackgroundError(`reconciling ${collection}`, error);
      }
    }
  }
}
