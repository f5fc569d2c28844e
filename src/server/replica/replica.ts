import { createHash } from 'node:crypto';
import { isApiError, type ApiError } from '../../client';
import { Listeners } from '../../client/listeners';
import type { ProxiedExchange, Upstream } from '../api-proxy';
import type { KeyGovernor } from '../governor/key-governor';
import { guarded, reportBackgroundError } from '../hub/background-error';
import { serverLog } from '../log';
import { serverClient } from '../governed-call';
import {
  PAGED_COLLECTIONS,
  storeWasReset,
  walkCollection,
  type PagedCollection,
  type WalkContext,
} from './collection-read';
import { REPLICA_COLLECTIONS, type ReplicaCollection, type ReplicaStore } from './replica-store';
import { deliveryChange, LISTING_WRITE_PATH, writeChange, type RowChange } from './row-changes';

// The one replica: filled through the governor, kept by deliveries and a reconciliation by
// `updated_at_min`, walked again when the store's fingerprint changes; no background step throws.

/** The reconciliation's interval with a webhook registered (a safety net), and without one. */
const SAFETY_NET_MS = 15 * 60_000;
const DEFAULT_RECONCILE_MS = 60_000;
/** The fill's waves, each read side by side: what the overview and insights show, then the rest. */
const SHOWN_FIRST: readonly ReplicaCollection[] = ['listings', 'orders'];
const FILL_WAVES = [SHOWN_FIRST, REPLICA_COLLECTIONS.filter((one) => !SHOWN_FIRST.includes(one))];
/** The first wait before a failed fill is tried again on its own (doubling per failure, capped). */
const [FILL_RETRY_MS, MAX_FILL_RETRY_MS] = [60_000, 30 * 60_000];

export interface ReplicaOptions {
  store: ReplicaStore;
  upstream: Upstream;
  governor: KeyGovernor | undefined;
  /** Whether deliveries are coming (a webhook registered or its secret configured). */
  webhooks: () => boolean;
  reconcileMs?: number;
  safetyNetMs?: number;
  /** The first fill at start (default), or at the first read (tests that count upstream calls). */
  fill?: 'at-start' | 'when-read';
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
  private readonly abort = new AbortController();
  /** Every read runs in this one line, so two never race for a collection's baseline. */
  private line: Promise<unknown> = Promise.resolve();
  private pendingCatchUp: { collections: Set<PagedCollection>; work: Promise<void> } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private firstFill: Promise<void> | undefined;
  private lastFillError: unknown;
  private fillFailures = 0;
  private fillRetryAt = 0;
  /** Collections the key may not read (403 `insufficient_scope`), with the refusal: held empty. */
  private readonly denied = new Map<ReplicaCollection, ApiError>();
  private closed = false;
  private fills = 0;
  private rounds = 0;
  private readonly changes = new Listeners<[collection: ReplicaCollection]>();
  /** Told as each collection's fill ends (filled, refused or failed) and at close. */
  private readonly fillEnds = new Listeners();

  constructor(private readonly options: ReplicaOptions) {
    this.store = options.store;
    // The governor's share of the replica's reads: a seller's click goes first.
    const terms = { priority: 'background', share: 'server:replica' } as const;
    const client = serverClient(options.upstream, options.governor, terms);
    const tell = (collection: ReplicaCollection) => this.changes.tell(collection);
    this.reads = { client, store: this.store, signal: this.abort.signal, tell };
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

  start(): void {
    if ((this.options.fill ?? 'at-start') === 'at-start') this.begin();
  }

  /** Starts the first fill if none has started, then reconciles once an interval. */
  begin(): void {
    if (this.firstFill || this.closed) return;
    this.firstFill = this.enqueue(() => this.fillMissing());
    this.schedule();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.abort.abort();
    this.fillEnds.tell();
    await this.line.catch(() => undefined);
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
    if (options.retryNow === true || Date.now() >= this.fillRetryAt) {
      await this.enqueue(() => this.fillMissing());
    }
    if (!this.filled(collections)) throw new ReplicaNotReadyError(this.lastFillError);
  }

  /** Whether the collections (default: all) were filled, or are not the key's to read. */
  filled(collections: readonly ReplicaCollection[] = REPLICA_COLLECTIONS): boolean {
    return collections.every((one) => this.denied.has(one) || this.store.state(one).filled);
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
      for (const collection of wanted) await walkCollection(this.reads, collection);
    });
    this.pendingCatchUp = { collections: wanted, work };
    return work;
  }

  fillFailure(): unknown {
    return this.lastFillError;
  }

  /** Resolves once the collection is filled, a fill failed or the replica closed; else after `ms`. */
  fillLanded(collection: ReplicaCollection, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        stop();
        resolve();
      };
      const check = () => {
        if (this.closed || this.filled([collection]) || this.lastFillError !== undefined) end();
      };
      const timer = setTimeout(end, ms);
      const stop = this.fillEnds.subscribe(check);
      check();
    });
  }

  /** The marketplace's refusal of the collection to the key (held empty, not asked again). */
  refusal(collection: ReplicaCollection): ApiError | undefined {
    return this.denied.get(collection);
  }

  webhooks(): boolean {
    return this.options.webhooks();
  }

  /** A verified delivery: its row set newest-wins; an unknown listing is read by a catch-up. */
  applyDelivery(topic: string, payload: unknown): void {
    const read = () => deliveryChange(topic, payload);
    this.apply(`applying a ${topic} delivery`, read, ['inventory_items', 'inventory_levels']);
  }

  /** A listing write's successful answer (the proxy's, a rule's), set on its row. */
  applyWriteAnswer(answer: unknown): void {
    this.apply('applying a write’s answer', () => writeChange(answer), ['inventory_items']);
  }

  /** The proxy's answer to a browser's call: a successful listing write is set on its row. */
  readonly observe = ({ method, status, path, responseBody }: ProxiedExchange): void => {
    if (method === 'GET' || status < 200 || status >= 300) return;
    if (!LISTING_WRITE_PATH.test(path) || !responseBody) return;
    const read = () => writeChange(JSON.parse(responseBody.toString('utf8')));
    this.apply('reading a write’s answer', read, ['inventory_items']);
  };

  /** Sets a change on its row; one of a row not kept yet is read with `alsoRead` instead. */
  private apply(where: string, read: () => RowChange | null, alsoRead: PagedCollection[]): void {
    guarded(`${where} to the replica`, () => {
      const change = read();
      if (!change) return;
      const { collection, id, fields, updatedAt } = change;
      // An order's delivery is the order whole: one not kept yet is taken as it stands.
      const create = collection === 'orders';
      const outcome = this.store.put(collection, id, fields, { updatedAt, create });
      if (outcome === 'unknown') void this.catchUp([collection, ...alsoRead]);
      else if (outcome === 'applied') this.changes.tell(collection);
    });
  }

  status() {
    const { store } = this;
    const collections = Object.fromEntries(
      REPLICA_COLLECTIONS.map((one) => [
        one,
        { rows: store.count(one), ...store.state(one), denied: this.denied.has(one) },
      ]),
    );
    const degraded = REPLICA_COLLECTIONS.flatMap((collection) =>
      store
        .degraded(collection)
        .map(({ seenAt, ...entry }) => ({ collection, ...entry, lastSeen: seenAt })),
    );
    const [changeNumber, epoch] = [store.changeNumber(), store.epoch()];
    // Fills and rounds: full walks and reconciliation rounds since the server started.
    return { changeNumber, epoch, collections, degraded, fills: this.fills, rounds: this.rounds };
  }

  /** One reconciliation round now (after deliveries were lost, and tests; the timer runs the same). */
  round(): Promise<void> {
    return this.enqueue(() => this.reconcileAll());
  }

  /** Told the collection after rows of it changed (the rules' reader drops what it planned). */
  onChange(listener: (collection: ReplicaCollection) => void): () => void {
    return this.changes.subscribe((one) =>
      guarded('telling a replica change', () => listener(one)),
    );
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
      // A failed fill waits out its retry, judged at the round's turn (a fill under way may fail).
      void this.enqueue(async () => {
        if (!this.filled() && Date.now() < this.fillRetryAt) return;
        await this.reconcileAll();
      }).finally(() => this.schedule());
    }, interval);
    this.timer.unref?.();
  }

  /** Walks the collections not filled yet, a wave's side by side; a failure leaves later waves. */
  private async fillMissing(): Promise<void> {
    let failure: { error: unknown } | undefined;
    const fill = async (collection: ReplicaCollection) => {
      try {
        await walkCollection(this.reads, collection);
      } catch (error) {
        if (isApiError(error) && error.code === 'insufficient_scope') {
          serverLog.warn({ collection }, 'Replica: the key may not read this collection');
          this.denied.set(collection, error);
        } else if (!this.closed) {
          failure ??= { error };
          this.lastFillError = error;
        }
      } finally {
        this.fillEnds.tell();
      }
    };
    for (const wave of FILL_WAVES) {
      await Promise.all(wave.filter((one) => !this.filled([one])).map(fill));
      if (this.closed) return;
      if (failure) {
        // An upstream that fails the same way again is not walked every round: it waits longer.
        const wait = FILL_RETRY_MS * 2 ** this.fillFailures++;
        this.fillRetryAt = Date.now() + Math.min(MAX_FILL_RETRY_MS, wait);
        throw failure.error;
      }
    }
    this.lastFillError = undefined;
    this.fillFailures = 0;
    this.fills++;
  }

  /** The round: a reset store is walked again whole; otherwise each collection reconciled. */
  private async reconcileAll(): Promise<void> {
    this.rounds++;
    if (!this.filled()) return this.fillMissing();
    // The fingerprint is the oldest listing: a key that may not read listings has none.
    if (!this.denied.has('listings') && (await storeWasReset(this.reads))) {
      serverLog.warn('Replica: the store’s fingerprint changed (it was reset): walking it again');
      this.store.forgetAll();
      for (const collection of REPLICA_COLLECTIONS) this.changes.tell(collection);
      return this.fillMissing();
    }
    for (const collection of PAGED_COLLECTIONS) {
      if (this.denied.has(collection)) continue;
      // One collection's failure does not hold the others.
      await walkCollection(this.reads, collection).catch((error: unknown) => {
        if (!this.closed) reportBackgroundError(`reconciling ${collection}`, error);
      });
    }
  }
}
