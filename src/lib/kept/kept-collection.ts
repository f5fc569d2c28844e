import {
  CURSOR_ERROR_CODES,
  isApiError,
  type ApiError,
  type Page,
  type SetAsideRecord,
  type WalkOptions,
} from '../../client';
import { yieldToPage } from '../yield-to-page';
import { CHUNK_ROWS, type KeptDb } from './kept-db';

/** How a kept collection reads the API (bound to one endpoint and its filters). */
export interface KeptSource<T> {
  /** The collection's name in the kept database (`listings`, `orders`). */
  collection: string;
  /** Walks pages (cursor chain); `updatedAtMin` for an incremental read. */
  walk(options: Omit<WalkOptions, 'fields'>): AsyncGenerator<Page<T>, void, undefined>;
  /** The oldest row's id and `created_at` (one row, two fields): the store's fingerprint. */
  probe(signal: AbortSignal | undefined): Promise<Fingerprint | undefined>;
  /** Who the rows belong to (format, deployment, mode, seller, key); undefined when unknown. */
  scope(signal: AbortSignal | undefined): Promise<string | undefined>;
  /** The API's clock now (epoch ms), as best known. */
  serverNow(): number;
  /** The row's `created_at` (the fingerprint's second half). */
  createdAtOf(row: T): string | undefined;
}

export interface Fingerprint {
  id: string;
  createdAt: string | undefined;
}

/** What the pages see of a kept collection: a new object on every change. */
export interface KeptSnapshot<T> {
  /** The rows, oldest first. The array is the collection's own: read it, never change it. */
  rows: readonly T[];
  /** Bumped on every change (new rows, a row replaced, a rebuild). */
  version: number;
  /** False while a full walk is still reading pages (the rows so far are usable). */
  complete: boolean;
  pages: number;
  setAside: SetAsideRecord[];
  /** The API's time the last full or incremental read started from (ISO). */
  syncedAt: string;
  /** Local epoch ms when the copy was last brought up to date with the API. */
  checkedAt: number | undefined;
  /** How many rows the last incremental read brought back. */
  lastChanged: number | undefined;
  /** Where the rows came from on this visit: the kept copy, or a walk. */
  origin: 'kept' | 'walk';
  /** Why the last rebuild happened, when the kept copy was dropped. */
  rebuiltBecause: string | undefined;
}

/** Clock-skew overlap of an incremental read (ms before the last baseline). */
export const OVERLAP_MS = 5000;
/**
 * How long a walk lets pages gather before telling the pages (which then filter and sort every
 * row): the first page at once, then at most every 200 ms, stretching to 1.5 s as the rows grow,
 * so showing progress never costs more than reading the pages.
 */
/**
 * How long after a full walk its copy is written: the rows are in memory already, and the pages
 * that just walked (insights, the overview) are still drawing from them; writing a copy then
 * (chunks stringified in the page's idle moments) would take those moments from the drawing.
 */
const SAVE_AFTER_WALK_MS = 3000;
const notifyEveryMs = (rows: number) => Math.min(1500, Math.max(200, rows / 50));

class RebuildNeeded extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * One collection as the browser keeps it: every row in memory (appended page by page, replaced in
 * place by id), a copy in IndexedDB per key and mode, brought up to date by incremental reads
 * (`updated_at_min`, merged by id) and rebuilt from a full walk when the kept copy is not this
 * store's (another key or deployment, a reset, a stale cursor). Handling a page costs in
 * proportion to that page: rows are appended, indexed and their chunks marked for saving.
 */
export class KeptCollection<T extends { id: string }> {
  private rows: T[] = [];
  /** Row positions by id, built when first needed (not before a kept copy is first shown). */
  private byId: Map<string, number> | undefined = new Map();
  private readonly dirty = new Set<number>();
  private state: KeptSnapshot<T>;
  private readonly listeners = new Set<() => void>();
  private running: Promise<KeptSnapshot<T>> | undefined;
  private scope: string | undefined;
  private started = false;
  private notifyTimer: ReturnType<typeof setTimeout> | undefined;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private saving: Promise<void> = Promise.resolve();
  /** Settles once the /ping of the first sync has named the copy's scope. */
  private scopeKnown: Promise<void> = Promise.resolve();

  constructor(
    private readonly source: KeptSource<T>,
    private readonly db: KeptDb | null,
  ) {
    this.state = {
      rows: this.rows,
      version: 0,
      complete: false,
      pages: 0,
      setAside: [],
      syncedAt: new Date(0).toISOString(),
      checkedAt: undefined,
      lastChanged: undefined,
      origin: 'walk',
      rebuiltBecause: undefined,
    };
  }

  snapshot = (): KeptSnapshot<T> => this.state;

  /** True once rows are there to show (kept or a first page). */
  get loaded(): boolean {
    return this.started && (this.state.complete || this.state.pages > 0);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  private get index(): Map<string, number> {
    if (!this.byId) {
      this.byId = new Map();
      for (let i = 0; i < this.rows.length; i++) this.byId.set(this.rows[i]!.id, i);
    }
    return this.byId;
  }

  get(id: string): T | undefined {
    const at = this.index.get(id);
    return at === undefined ? undefined : this.rows[at];
  }

  /**
   * Brings the collection up to date: the first call shows the kept copy (when it is this key's
   * and this store's) and reads what changed since, or walks every page; later calls read only
   * what changed. Concurrent calls share one read.
   */
  sync(signal?: AbortSignal): Promise<KeptSnapshot<T>> {
    this.running ??= this.run(signal).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async run(signal: AbortSignal | undefined): Promise<KeptSnapshot<T>> {
    if (!this.started) {
      this.started = true;
      try {
        return await this.firstSync(signal);
      } catch (error) {
        this.started = this.state.complete;
        throw error;
      }
    }
    if (!this.state.complete) return this.walkAll(signal, undefined);
    try {
      return await this.incremental(signal);
    } catch (error) {
      if (error instanceof RebuildNeeded) return this.walkAll(signal, error.reason);
      throw error;
    }
  }

  private async firstSync(signal: AbortSignal | undefined): Promise<KeptSnapshot<T>> {
    // Who we are (a /ping) and what is kept (IndexedDB), side by side; shown only if they match.
    const scope = this.source.scope(signal).catch(() => undefined);
    const stored = this.db
      ? await this.db.load<T>(this.source.collection).catch(() => undefined)
      : undefined;
    if (!stored) {
      // Nothing kept: the walk need not wait for the /ping, only the first save does.
      this.scopeKnown = scope.then((known) => {
        this.scope = known;
      });
      return this.walkAll(signal, undefined);
    }
    this.scope = await scope;
    const kept = this.scope !== undefined && stored.head.scope === this.scope ? stored : undefined;
    if (!kept) return this.walkAll(signal, undefined);
    this.replaceAll(kept.rows);
    this.publish({
      complete: true,
      pages: 0,
      syncedAt: kept.head.syncedAt,
      checkedAt: kept.head.checkedAt,
      origin: 'kept',
    });
    try {
      await this.checkFingerprint(signal);
      return await this.incremental(signal);
    } catch (error) {
      if (error instanceof RebuildNeeded) return this.walkAll(signal, error.reason);
      throw error;
    }
  }

  /** The store's oldest row must still be ours: otherwise the server's store is another one. */
  private async checkFingerprint(signal: AbortSignal | undefined): Promise<void> {
    const first = await this.source.probe(signal);
    const ours = this.rows[0];
    if (!first && !ours) return;
    if (!first || !ours) throw new RebuildNeeded('the store no longer matches the kept copy');
    const ourCreated = this.source.createdAtOf(ours);
    if (first.id !== ours.id || (first.createdAt !== undefined && first.createdAt !== ourCreated)) {
      throw new RebuildNeeded('the store was reset since the kept copy');
    }
  }

  private async incremental(signal: AbortSignal | undefined): Promise<KeptSnapshot<T>> {
    const started = this.source.serverNow();
    const since = new Date(Date.parse(this.state.syncedAt) - OVERLAP_MS).toISOString();
    let changed = 0;
    const setAside: SetAsideRecord[] = [];
    try {
      for await (const page of this.source.walk({
        signal,
        updatedAtMin: since,
        priority: 'background',
        maxRestarts: 0,
      })) {
        for (const row of page.rows) this.put(row);
        changed += page.rows.length;
        setAside.push(...page.setAside);
      }
    } catch (error) {
      // Cursors expire with their data: what was kept may no longer be the server's.
      if (isApiError(error) && CURSOR_ERROR_CODES.has(error.code)) {
        throw new RebuildNeeded(`the server called a cursor stale (${error.code})`);
      }
      throw error;
    }
    const fresh = new Set(setAside.map((record) => record.id));
    this.publish({
      setAside: [...this.state.setAside.filter((r) => !fresh.has(r.id)), ...setAside],
      syncedAt: new Date(started - 1000).toISOString(),
      checkedAt: Date.now(),
      lastChanged: changed,
    });
    this.scheduleSave(0);
    return this.state;
  }

  /**
   * A full walk, from the first page: rows usable as each page lands. A cursor the server calls
   * stale means the data moved under the walk: it starts again from an empty copy.
   */
  private async walkAll(
    signal: AbortSignal | undefined,
    reason: string | undefined,
  ): Promise<KeptSnapshot<T>> {
    for (let attempt = 0; ; attempt++) {
      const baseline = this.source.serverNow() - 1000;
      this.replaceAll([]);
      this.publish({
        complete: false,
        pages: 0,
        setAside: [],
        syncedAt: new Date(baseline).toISOString(),
        checkedAt: undefined,
        lastChanged: undefined,
        origin: 'walk',
        rebuiltBecause: reason,
      });
      if (this.db) {
        // The old copy is dropped after any save still writing it, and before the next save;
        // the walk does not wait for either.
        const db = this.db;
        this.saving = this.saving.then(() =>
          db.clear(this.source.collection).catch(() => undefined),
        );
      }
      let stale: ApiError | undefined;
      const setAside: SetAsideRecord[] = [];
      let pages = 0;
      for await (const page of this.source.walk({
        signal,
        maxRestarts: attempt < 2 ? 1 : 3,
        onRestart: (error) => {
          stale = error;
        },
      })) {
        if (stale && attempt < 2) break;
        pages++;
        for (const row of page.rows) this.put(row);
        setAside.push(...page.setAside);
        this.state = { ...this.state, pages, setAside };
        // The first page is usable at once; later ones gather (see notifyEveryMs).
        if (pages === 1) this.publish({});
        else this.notifySoon();
        // One page a task: pages that came in one piece of the answer are not read, checked and
        // (the first) drawn in one long task.
        await yieldToPage();
      }
      if (stale && attempt < 2) {
        reason = `the server called a cursor stale (${stale.code})`;
        continue;
      }
      this.publish({ complete: true, pages, setAside, checkedAt: Date.now() });
      this.scheduleSave(SAVE_AFTER_WALK_MS);
      return this.state;
    }
  }

  /** Adds or replaces one row (a live update or a landed write); false when nothing changed. */
  upsert(row: T): void {
    this.put(row);
    this.publish({});
    this.scheduleSave(1000);
  }

  /** Replaces a kept row by id with `change(row)`; false when the id is not kept. */
  update(id: string, change: (row: T) => T): boolean {
    const current = this.get(id);
    if (!current) return false;
    this.put(change(current));
    this.publish({});
    this.scheduleSave(1000);
    return true;
  }

  private put(row: T): void {
    const at = this.index.get(row.id);
    if (at === undefined) {
      this.index.set(row.id, this.rows.length);
      this.dirty.add(Math.floor(this.rows.length / CHUNK_ROWS));
      this.rows.push(row);
    } else {
      this.rows[at] = row;
      this.dirty.add(Math.floor(at / CHUNK_ROWS));
    }
  }

  private replaceAll(rows: T[]): void {
    this.rows = rows;
    this.byId = rows.length === 0 ? new Map() : undefined;
    this.dirty.clear();
  }

  private notifySoon(): void {
    if (this.notifyTimer !== undefined) return;
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = undefined;
      this.publish({});
    }, notifyEveryMs(this.rows.length));
  }

  private publish(patch: Partial<KeptSnapshot<T>>): void {
    if (this.notifyTimer !== undefined) {
      clearTimeout(this.notifyTimer);
      this.notifyTimer = undefined;
    }
    this.state = { ...this.state, ...patch, rows: this.rows, version: this.state.version + 1 };
    for (const listener of this.listeners) listener();
  }

  private scheduleSave(delayMs: number): void {
    if (!this.db || !this.state.complete) return;
    if (this.saveTimer !== undefined) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.save();
    }, delayMs);
  }

  /** Writes the chunks that changed since the last save, and the head (one save at a time). */
  save(): Promise<void> {
    this.saving = this.saving.then(() => this.scopeKnown).then(() => this.saveNow());
    return this.saving;
  }

  private async saveNow(): Promise<void> {
    if (!this.db || this.scope === undefined || !this.state.complete) return;
    const chunks = [...this.dirty];
    this.dirty.clear();
    await this.db
      .save(
        {
          collection: this.source.collection,
          scope: this.scope,
          syncedAt: this.state.syncedAt,
          checkedAt: this.state.checkedAt ?? Date.now(),
          rowCount: this.rows.length,
          chunkCount: Math.ceil(this.rows.length / CHUNK_ROWS),
        },
        this.rows,
        chunks,
      )
      .catch(() => {
        for (const chunk of chunks) this.dirty.add(chunk);
      });
  }
}
