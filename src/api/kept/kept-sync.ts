import {
  CURSOR_ERROR_CODES,
  isApiError,
  type ApiError,
  type Page,
  type SetAsideRecord,
  type WalkOptions,
} from '../../client';
import { yieldToPage } from '../yield-to-page';
import type { KeptDb, KeptSetAside } from './kept-db';
import { isOlder } from './newest';
import { noteStoreChecked, storeCheckedThisSession } from './store-checks';

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
  /** The row's `created_at`, when its view has one: how a reset store is told from ours. */
  createdAtOf(row: T): string | undefined;
  /**
   * What a read's rows need from another read before they are kept (the orders: which are open);
   * `since` is the incremental read's, undefined after a full walk.
   */
  complete?(
    rows: readonly T[],
    since: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<T[]>;
}

/** A page's set-aside records, stamped with the time of the read that found them. */
const stamped = (records: readonly SetAsideRecord[], seenAt: string): KeptSetAside[] =>
  records.map((record) => ({ ...record, seenAt }));

export interface Fingerprint {
  id: string;
  createdAt: string | undefined;
}

/** A kept collection as the query cache holds it: immutable, a new object on every change. */
export interface Kept<T> {
  /** The rows, oldest first (a new array on every change). */
  rows: readonly T[];
  /** False while a full walk is still reading pages (the rows so far are usable). */
  complete: boolean;
  pages: number;
  /**
   * Records the server sent degraded or unreadable, by id: kept (and kept in IndexedDB) across
   * incremental reads, which do not bring an unchanged record again, until a read returns it whole.
   */
  setAside: KeptSetAside[];
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
  /** Whose rows these are (see kept-sources); undefined until the /ping has said. */
  scope: string | undefined;
  /**
   * Why the last read failed, until one succeeds: in the data, so a later change never hides it.
   */
  failure?: KeptFailure | undefined;
}

/** A failed read of a kept collection, and when the next one may start on its own. */
export interface KeptFailure {
  error: unknown;
  /** Local epoch ms of the failure. */
  at: number;
  /** Local epoch ms before which no read starts unless the seller asks. */
  retryAt: number;
  /** Failures in a row (the back-off doubles with each). */
  attempts: number;
}

/** What a sync needs besides its source: the database, the cache's current data, a way to show. */
export interface SyncContext<T> {
  db: KeptDb | null;
  /** The collection as the cache holds it now (live patches land there between reads). */
  current(): Kept<T> | undefined;
  /** Shows a state before the sync ends (a kept copy, a walk's pages so far); true if shown. */
  show(kept: Kept<T>): boolean;
  signal?: AbortSignal | undefined;
}

/** The most rows a kept walk reads, whatever the server announces: twice the largest catalogue we measure. */
export const MAX_KEPT_ROWS = 200_000;
/** Rows a walk may find beyond the last complete one before it is taken for a runaway. */
const GROWTH_ROWS = 10_000;
/** Rows a kept walk asks for per page (see kept-sources). */
export const KEPT_PAGE_ROWS = 250;

/**
 * The most pages a full walk reads (twice the last walk's and some, capped), so an endless server
 * stops here.
 */
export function pageBound(lastRows: number | undefined): number {
  const rows =
    lastRows === undefined ? MAX_KEPT_ROWS : Math.min(MAX_KEPT_ROWS, 2 * lastRows + GROWTH_ROWS);
  return Math.ceil(rows / KEPT_PAGE_ROWS);
}

/** Clock-skew overlap of an incremental read (ms before the last baseline). */
export const OVERLAP_MS = 5000;
/** How long a walk lets pages gather before showing them (showing filters every row). */
const showEveryMs = (rows: number) => Math.min(1500, Math.max(200, rows / 50));

class RebuildNeeded extends Error {
  constructor(
    readonly reason: string,
    /** How many rows the copy being rebuilt held (the bound of the walk that replaces it). */
    readonly lastRows?: number,
  ) {
    super(reason);
  }
}

/**
 * Brings a kept collection up to date: this browser's copy when it is this key's and store's
 * (shown, then read incrementally), or a full walk; a copy of another store is rebuilt.
 */
export async function syncKept<T extends { id: string }>(
  source: KeptSource<T>,
  context: SyncContext<T>,
): Promise<Kept<T>> {
  const previous = context.current();
  try {
    if (!previous) return await firstSync(source, context);
    if (!previous.complete) return await walkAll(source, context, undefined, undefined);
    return await incremental(source, context, previous);
  } catch (error) {
    if (!(error instanceof RebuildNeeded)) throw error;
    return walkAll(source, context, error.reason, previous?.scope, error.lastRows);
  }
}

async function firstSync<T extends { id: string }>(
  source: KeptSource<T>,
  context: SyncContext<T>,
): Promise<Kept<T>> {
  // Who we are (a /ping) and what is kept (IndexedDB), side by side; shown only if they match.
  const scope = source.scope(context.signal).catch(() => undefined);
  const stored = context.db
    ? await context.db.load<T>(source.collection).catch(() => undefined)
    : undefined;
  // Nothing kept: the walk need not wait for the /ping.
  if (!stored) return walkAll(source, context, undefined, scope);
  const known = await scope;
  if (known === undefined || stored.head.scope !== known) {
    return walkAll(source, context, undefined, known);
  }
  const kept: Kept<T> = {
    rows: stored.rows,
    complete: true,
    pages: 0,
    // What the last reads could not read stays reported until a read returns it whole.
    setAside: stored.head.setAside ?? [],
    syncedAt: stored.head.syncedAt,
    checkedAt: stored.head.checkedAt,
    lastChanged: undefined,
    origin: 'kept',
    rebuiltBecause: undefined,
    scope: known,
  };
  context.show(kept);
  // Once a session: a store reset with backdated rows shows in no incremental read.
  if (!storeCheckedThisSession(known)) {
    try {
      await checkFingerprint(source, kept.rows, context.signal);
    } catch (error) {
      if (error instanceof RebuildNeeded) throw new RebuildNeeded(error.reason, kept.rows.length);
      throw error;
    }
    noteStoreChecked(known);
  }
  return incremental(source, context, kept);
}

/** The store's oldest row must still be ours: otherwise the server's store is another one. */
async function checkFingerprint<T extends { id: string }>(
  source: KeptSource<T>,
  rows: readonly T[],
  signal: AbortSignal | undefined,
): Promise<void> {
  const first = await source.probe(signal);
  const ours = rows[0];
  if (!first && !ours) return;
  if (!first || !ours) throw new RebuildNeeded('the store no longer matches the kept copy');
  const ourCreated = source.createdAtOf(ours);
  if (first.id !== ours.id || (first.createdAt !== undefined && first.createdAt !== ourCreated)) {
    throw new RebuildNeeded('the store was reset since the kept copy');
  }
}

async function incremental<T extends { id: string }>(
  source: KeptSource<T>,
  context: SyncContext<T>,
  from: Kept<T>,
): Promise<Kept<T>> {
  const started = source.serverNow();
  const seenAt = new Date(started).toISOString();
  const since = new Date(Date.parse(from.syncedAt) - OVERLAP_MS).toISOString();
  const changed = new Map<string, T>();
  let count = 0;
  const setAside: KeptSetAside[] = [];
  try {
    for await (const page of source.walk({
      signal: context.signal,
      updatedAtMin: since,
      priority: 'background',
      maxRestarts: 0,
    })) {
      for (const row of page.rows) changed.set(row.id, row);
      count += page.rows.length;
      setAside.push(...stamped(page.setAside, seenAt));
    }
    if (source.complete && changed.size > 0) {
      for (const row of await source.complete([...changed.values()], since, context.signal)) {
        changed.set(row.id, row);
      }
    }
  } catch (error) {
    // Cursors expire with their data: what was kept may no longer be the server's.
    if (isApiError(error) && CURSOR_ERROR_CODES.has(error.code)) {
      throw new RebuildNeeded(
        `the server called a cursor stale (${error.code})`,
        (context.current() ?? from).rows.length,
      );
    }
    throw error;
  }
  // Merged into the cache's rows as they are now: a live patch made meanwhile stays.
  const base = context.current() ?? from;
  const other = anotherStore(source, base, changed);
  if (other) throw new RebuildNeeded(other, base.rows.length);
  // A record set aside before stays so until a read returns it whole (an incremental read does
  // not bring an unchanged one again); one this read could not read is left out of the rows.
  const fresh = new Set(setAside.map((record) => record.id));
  const rows = merged(base.rows, changed);
  return {
    ...base,
    rows: fresh.size > 0 ? rows.filter((row) => !fresh.has(row.id)) : rows,
    setAside: [
      ...base.setAside.filter(
        (r) => !fresh.has(r.id) && (r.id === undefined || !changed.has(r.id)),
      ),
      ...setAside,
    ],
    syncedAt: new Date(started - 1000).toISOString(),
    checkedAt: Date.now(),
    lastChanged: count,
  };
}

/**
 * Why the changed rows cannot be ours, if they cannot: a kept row's `created_at` changed, or a row
 * unknown to the copy was created before its oldest row (collections append at the tail). The check
 * rides on the incremental read, so a reload spends no request on it.
 */
function anotherStore<T extends { id: string }>(
  source: KeptSource<T>,
  kept: Kept<T>,
  changed: ReadonlyMap<string, T>,
): string | undefined {
  if (changed.size === 0 || kept.rows.length === 0) return undefined;
  const byId = new Map(kept.rows.map((row) => [row.id, row]));
  const setAside = new Set(kept.setAside.map((record) => record.id));
  const oldest = Date.parse(source.createdAtOf(kept.rows[0]!) ?? '');
  for (const row of changed.values()) {
    const created = source.createdAtOf(row);
    if (created === undefined) continue;
    const ours = byId.get(row.id);
    const ourCreated = ours && source.createdAtOf(ours);
    if (ourCreated !== undefined && ourCreated !== created) {
      return 'the store was reset since the kept copy';
    }
    if (!ours && !setAside.has(row.id) && Date.parse(created) < oldest) {
      return 'the store no longer matches the kept copy';
    }
  }
  return undefined;
}

/** The rows with each changed row replaced where it is (unless older), and the new ones appended. */
export function merged<T extends { id: string }>(
  rows: readonly T[],
  changed: ReadonlyMap<string, T>,
): readonly T[] {
  if (changed.size === 0) return rows;
  const left = new Map(changed);
  const next = rows.map((row) => {
    const replacement = left.get(row.id);
    if (replacement === undefined) return row;
    left.delete(row.id);
    // A row patched live since the read began may be newer than the read's: the newer stays.
    return isOlder(replacement, row) ? row : replacement;
  });
  for (const row of left.values()) next.push(row);
  return next;
}

/**
 * A full walk, rows shown as pages land; a stale cursor means the data moved: start again, empty.
 */
async function walkAll<T extends { id: string }>(
  source: KeptSource<T>,
  context: SyncContext<T>,
  reason: string | undefined,
  known: Promise<string | undefined> | string | undefined,
  lastRows?: number,
): Promise<Kept<T>> {
  const scope = known ?? source.scope(context.signal).catch(() => undefined);
  const maxPages = pageBound(lastRows);
  // Whose rows these are, on the states shown once the /ping has said (their copy is kept as
  // the walk goes).
  let owner: string | undefined;
  void Promise.resolve(scope).then((said) => (owner = said));
  for (let attempt = 0; ; attempt++) {
    const rows: T[] = [];
    const seenAt = new Date(source.serverNow()).toISOString();
    /** Positions by id: a walk restarted by the server may bring a row again. */
    const at = new Map<string, number>();
    let state: Kept<T> = {
      rows: [],
      complete: false,
      pages: 0,
      setAside: [],
      syncedAt: new Date(source.serverNow() - 1000).toISOString(),
      checkedAt: undefined,
      lastChanged: undefined,
      origin: 'walk',
      rebuiltBecause: reason,
      scope: undefined,
    };
    context.show(state);
    let timer: ReturnType<typeof setTimeout> | undefined;
    /** The rows last shown, when they were: a live patch of one of them since is kept. */
    let shown: readonly T[] | undefined;
    const adoptPatches = () => {
      const now = context.current()?.rows;
      if (shown && now && now !== shown && now.length === shown.length) {
        for (let i = 0; i < now.length; i++) {
          if (now[i] !== shown[i] && !isOlder(now[i], rows[i])) rows[i] = now[i]!;
        }
      }
    };
    const showNow = () => {
      clearTimeout(timer);
      timer = undefined;
      adoptPatches();
      state = { ...state, rows: rows.slice(), scope: owner };
      shown = context.show(state) ? state.rows : undefined;
    };
    let stale: ApiError | undefined;
    try {
      for await (const page of source.walk({
        signal: context.signal,
        maxRestarts: attempt < 2 ? 1 : 3,
        maxPages,
        onRestart: (error) => {
          stale = error;
        },
      })) {
        if (stale && attempt < 2) break;
        for (const row of page.rows) {
          const seen = at.get(row.id);
          if (seen === undefined) at.set(row.id, rows.push(row) - 1);
          else rows[seen] = row;
        }
        state = {
          ...state,
          pages: state.pages + 1,
          setAside: [...state.setAside, ...stamped(page.setAside, seenAt)],
        };
        if (state.pages === 1) showNow();
        else timer ??= setTimeout(showNow, showEveryMs(rows.length));
        // One page a task: pages that came in one piece of the answer are not read, checked and
        // (the first) drawn in one long task.
        await yieldToPage();
      }
    } catch (error) {
      // Every row read before the failure is shown (the failure then stays with them).
      if (state.pages > 0) showNow();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    if (stale && attempt < 2) {
      reason = `the server called a cursor stale (${stale.code})`;
      continue;
    }
    // Every row is shown while the /ping still names whose they are (a first visit's walk).
    showNow();
    owner = await scope;
    // A whole walk read this store: its copy needs no fingerprint check again this session.
    if (owner) noteStoreChecked(owner);
    adoptPatches();
    const whole = source.complete ? await source.complete(rows, undefined, context.signal) : rows;
    return { ...state, rows: whole.slice(), complete: true, checkedAt: Date.now(), scope: owner };
  }
}
