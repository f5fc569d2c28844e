import { createHash } from 'node:crypto';
import { isApiError, type ApiError, type SlabdeskClient } from '../../client';
import type { ProxiedExchange, Upstream } from '../api-proxy';
import type { KeyGovernor } from '../governor/key-governor';
import { reportBackgroundError } from '../hub/background-error';
import { serverLog } from '../log';
import { serverClient } from '../server-client';
import {
  PAGED_COLLECTIONS,
  readCollection,
  readLocations,
  type PagedCollection,
} from './collection-read';
import { listingWriteFields, rowChangeOf } from './delivery-rows';
import { noteOpenOrders, undecidedOrder } from './open-orders';
import {
  REPLICA_COLLECTIONS,
  type DegradedEntry,
  type ReplicaCollection,
  type ReplicaStore,
} from './replica-store';

/**
 * The hub's replica of the seller's store, one for the whole deployment: filled once by a walk at
 * background priority through the governor, kept current by verified deliveries (newest wins by
 * the record's own `updated_at`) and by a reconciliation read by `updated_at_min` once an
 * interval, walked again once when the store's fingerprint changes (it was reset). Every
 * background step is caught and logged; none throws.
 */

/** The governor's share of the replica's reads: a seller's click goes first. */
export const REPLICA_SHARE = 'server:replica';
/** The reconciliation's interval with a webhook registered: a safety net for missed deliveries. */
export const SAFETY_NET_MS = 15 * 60_000;
/** The reconciliation's interval with no webhook registered (`SLABDESK_RECONCILE_MINUTES`). */
export const DEFAULT_RECONCILE_MS = 60_000;
/** The first wait before a failed fill is tried again on its own; it doubles per failure. */
const FILL_RETRY_MS = 60_000;
const MAX_FILL_RETRY_MS = 30 * 60_000;
/** Read again before the last read's baseline: a change stamped as a read began is not missed. */
const OVERLAP_MS = 5_000;
/** A listing write's path through the proxy (the alias `products` paths answer another shape). */
const LISTING_WRITE_PATH = /^\/2026-07\/listings(?:\/[^/]+?)?(?:\.json)?$/;

export interface ReplicaOptions {
  store: ReplicaStore;
  upstream: Upstream;
  governor: KeyGovernor | undefined;
  /** Whether deliveries are coming (a webhook registered or its secret configured). */
  webhooks: () => boolean;
  /** The reconciliation's interval with no webhook (default DEFAULT_RECONCILE_MS). */
  reconcileMs?: number;
  /** The reconciliation's interval with a webhook (default SAFETY_NET_MS). */
  safetyNetMs?: number;
  /**
   * When the first fill starts: as the server starts (default), or when something first reads the
   * replica (a server whose upstream calls are counted one by one: the proxy's own tests).
   */
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

export interface ReplicaStatus {
  changeNumber: number;
  epoch: number;
  collections: Record<
    ReplicaCollection,
    { rows: number; filled: boolean; syncedAt: string | null; denied: boolean }
  >;
  degraded: DegradedEntry[];
  /** Full walks and reconciliation rounds since the server started. */
  fills: number;
  rounds: number;
}

interface Fingerprint {
  id: string;
  createdAt: string | null;
}

export class Replica {
  readonly store: ReplicaStore;
  private readonly client: SlabdeskClient;
  private readonly now: () => number;
  private readonly abort = new AbortController();
  /** Every read runs in this one line, so two never race for a collection's baseline. */
  private line: Promise<unknown> = Promise.resolve();
  private pendingCatchUp: { collections: Set<PagedCollection>; work: Promise<void> } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private firstFill: Promise<void> | undefined;
  private lastFillError: unknown;
  /** Failed fills in a row, and when the next one may start on its own (doubling, capped). */
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
    this.client = serverClient(options.upstream, options.governor, {
      priority: 'background',
      share: REPLICA_SHARE,
    });
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

  /**
   * Resolves once the collections (default: all) have been filled; rejects with
   * ReplicaNotReadyError when the fill could not be made (it is tried again at the next interval).
   */
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

  /**
   * The collections brought up to date now (a seller's click with no webhook registered): one
   * reconciliation read of each, shared by every caller waiting when it starts.
   */
  catchUp(collections: readonly PagedCollection[]): Promise<void> {
    const pending = this.pendingCatchUp;
    if (pending) {
      for (const collection of collections) pending.collections.add(collection);
      return pending.work;
    }
    const wanted = new Set(collections);
    const work = this.enqueue(async () => {
      this.pendingCatchUp = undefined;
      for (const collection of wanted) await this.reconcile(collection);
    }).then(() => undefined);
    this.pendingCatchUp = { collections: wanted, work };
    return work;
  }

  /** Why the last fill failed, until one succeeds (the collections not filled wait for the next). */
  fillFailure(): unknown {
    return this.lastFillError;
  }

  /** The marketplace's refusal when the key may not read the collection (held empty, not asked again). */
  refusal(collection: ReplicaCollection): ApiError | undefined {
    return this.denied.get(collection);
  }

  /** Whether deliveries keep the replica current (no catch-up needed for a click). */
  webhooks(): boolean {
    return this.options.webhooks();
  }

  /** A verified delivery: its row set newest-wins; an unknown listing is read by a catch-up. */
  applyDelivery(topic: string, payload: unknown): void {
    try {
      const change = rowChangeOf(topic, payload);
      if (!change) return;
      const outcome = this.store.patch(change.collection, change.id, change.fields, {
        updatedAt: change.updatedAt,
        whole: change.collection === 'orders',
      });
      if (outcome === 'unknown') {
        void this.catchUp([change.collection, 'inventory_items', 'inventory_levels']);
      } else if (outcome.applied) {
        this.tell(change.collection);
      }
    } catch (error) {
      reportBackgroundError(`applying a ${topic} delivery to the replica`, error);
    }
  }

  /** A listing write's successful answer (the proxy's, a rule's), set on its row. */
  applyWriteAnswer(answer: unknown): void {
    try {
      const write = listingWriteFields(answer);
      if (!write) return;
      const outcome = this.store.patch('listings', write.id, write.fields, {
        updatedAt: typeof write.fields.updated_at === 'string' ? write.fields.updated_at : null,
        whole: false,
      });
      if (outcome === 'unknown') void this.catchUp(['listings', 'inventory_items']);
      else if (outcome.applied) this.tell('listings');
    } catch (error) {
      reportBackgroundError('applying a write’s answer to the replica', error);
    }
  }

  /** The proxy's answer to a browser's call: a successful listing write is set on its row. */
  readonly observe = (exchange: ProxiedExchange): void => {
    if (exchange.method === 'GET' || exchange.status < 200 || exchange.status >= 300) return;
    if (!LISTING_WRITE_PATH.test(exchange.path) || !exchange.responseBody) return;
    try {
      this.applyWriteAnswer(JSON.parse(exchange.responseBody.toString('utf8')));
    } catch (error) {
      reportBackgroundError('reading a write’s answer for the replica', error);
    }
  };

  status(): ReplicaStatus {
    const collections = {} as ReplicaStatus['collections'];
    for (const collection of REPLICA_COLLECTIONS) {
      const state = this.store.state(collection);
      collections[collection] = {
        rows: this.store.count(collection),
        filled: state.filled,
        syncedAt: state.syncedAt,
        denied: this.denied.has(collection),
      };
    }
    return {
      changeNumber: this.store.changeNumber(),
      epoch: Number(this.store.meta('epoch') ?? 0),
      collections,
      degraded: this.store.degraded(),
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

  /**
   * A whole walk of every collection not filled yet, in turn: those filled stay filled when a
   * later one fails (the rest wait for the next try), and one the key may not read is held empty.
   */
  private async fillMissing(): Promise<void> {
    let failure: unknown;
    for (const collection of REPLICA_COLLECTIONS) {
      if (this.filled([collection])) continue;
      try {
        if (collection === 'locations') {
          await readLocations(this.client, this.store, this.abort.signal);
          this.store.setState('locations', { filled: true, syncedAt: null });
          this.tell('locations');
        } else {
          await this.fill(collection);
        }
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

  private async fill(collection: PagedCollection): Promise<void> {
    const started = this.now();
    const read = await this.read(collection, undefined);
    this.store.setState(collection, { filled: true, syncedAt: read.syncedAt });
    if (collection === 'listings') {
      this.store.setMeta('fingerprint', JSON.stringify(read.first ?? null));
    }
    serverLog.info(
      {
        collection,
        rows: read.rows,
        pages: read.pages,
        setAside: read.setAside.length,
        ms: this.now() - started,
      },
      'Replica: filled',
    );
    if (read.setAside.length > 0) {
      serverLog.warn({ collection, ids: read.setAside }, 'Replica: records the API could not read');
    }
    if (read.applied > 0) this.tell(collection);
  }

  private async reconcile(collection: PagedCollection): Promise<void> {
    const state = this.store.state(collection);
    if (!state.filled || state.syncedAt === null) {
      await this.fill(collection);
      return;
    }
    const since = new Date(Date.parse(state.syncedAt) - OVERLAP_MS).toISOString();
    const read = await this.read(collection, since);
    this.store.setState(collection, { filled: true, syncedAt: read.syncedAt });
    if (read.setAside.length > 0) {
      serverLog.warn({ collection, ids: read.setAside }, 'Replica: records the API could not read');
    }
    if (read.applied > 0) this.tell(collection);
  }

  /** One read of a collection into the store (whole, or `since`); orders noted open or not. */
  private async read(collection: PagedCollection, since: string | undefined) {
    const orders = collection === 'orders';
    const read = await readCollection(this.client, this.store, collection, {
      ...(since === undefined ? {} : { updatedAtMin: since }),
      signal: this.abort.signal,
      now: this.now,
      ...(orders ? { collect: undecidedOrder } : {}),
      onPage: (applied) => {
        if (applied > 0) this.tell(collection);
      },
    });
    if (orders) {
      read.applied += await noteOpenOrders(
        this.client,
        this.store,
        read.collected,
        since,
        this.abort.signal,
      );
    }
    return read;
  }

  /** The round: a reset store is walked again whole; otherwise each collection reconciled. */
  private async reconcileAll(): Promise<void> {
    this.rounds++;
    if (!this.filled()) {
      await this.fillMissing();
      return;
    }
    // The fingerprint is the oldest listing: a key that may not read listings has none.
    if (!this.denied.has('listings') && (await this.storeWasReset())) {
      serverLog.warn('Replica: the store’s fingerprint changed (it was reset): walking it again');
      this.store.forgetAll();
      for (const collection of REPLICA_COLLECTIONS) this.tell(collection);
      await this.fillMissing();
      return;
    }
    for (const collection of PAGED_COLLECTIONS) {
      if (this.denied.has(collection)) continue;
      try {
        await this.reconcile(collection);
      } catch (error) {
        // One collection's failure does not hold the others.
        if (!this.closed) reportBackgroundError(`reconciling ${collection}`, error);
      }
    }
  }

  /** The store's oldest listing (one row, two fields) against the one the fill saw first. */
  private async storeWasReset(): Promise<boolean> {
    const known = this.store.meta('fingerprint');
    const ours = known ? (JSON.parse(known) as Fingerprint | null) : null;
    let first: Fingerprint | undefined;
    for await (const page of this.client.listings.pages({
      limit: 1,
      fields: ['id', 'created_at'],
      lookahead: 0,
      priority: 'background',
      signal: this.abort.signal,
    })) {
      const row = page.rows[0] ?? page.setAside[0];
      if (row?.id !== undefined) {
        const createdAt =
          'created_at' in row && typeof row.created_at === 'string' ? row.created_at : null;
        first = { id: row.id, createdAt };
      }
      break;
    }
    if (ours === null) {
      // The fill saw no listing: the first one since is taken as the store's.
      if (first) this.store.setMeta('fingerprint', JSON.stringify(first));
      return false;
    }
    if (!first) return true;
    return (
      first.id !== ours.id ||
      (first.createdAt !== null && ours.createdAt !== null && first.createdAt !== ours.createdAt)
    );
  }
}
