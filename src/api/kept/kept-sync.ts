import { ApiError } from '../../client';
import type { HubFeedHead } from '../../client/hub-feed-answer';
import type { KeptDb, KeptSetAside } from './kept-db';

/** One answer of the hub's change feed (client/hub-feed-answer), its rows the kept collection's. */
export type HubFeedPage<T> = Omit<HubFeedHead, 'setAside'> & {
  setAside: KeptSetAside[];
  rows: T[];
};

/** How a kept collection reads the hub's replica (bound to one collection). */
export interface KeptSource<T> {
  /** The collection's name in the kept database (`listings`, `orders`). */
  collection: string;
  /** Whose rows the kept copy holds (format, collection, deployment): a copy of another is not read. */
  scope: string;
  /** The hub's pages from `cursor` (undefined: a snapshot), each row made a kept row. */
  feed(
    cursor: string | undefined,
    options: { fresh: boolean; signal: AbortSignal | undefined },
  ): AsyncGenerator<HubFeedPage<T>, void, undefined>;
}

/** A kept collection as the query cache holds it: immutable, a new object on every change. */
export interface Kept<T> {
  /** The rows, in the order the hub first took them (a new array on every change). */
  rows: readonly T[];
  /** False while the hub's first fill or this browser's snapshot is still coming (rows usable). */
  complete: boolean;
  pages: number;
  /** Records sent degraded or unreadable, by id, reported until a read returns them whole. */
  setAside: KeptSetAside[];
  /** The API's time the hub's last read of the collection began (ISO). */
  syncedAt: string;
  /** Local epoch ms when the copy was last brought up to date with the hub. */
  checkedAt: number | undefined;
  /** How many rows the last read of the change feed brought. */
  lastChanged: number | undefined;
  /** Where the rows came from on this visit: the kept copy, or the hub's snapshot. */
  origin: 'kept' | 'walk';
  /** Why the last snapshot replaced a kept copy, when one did. */
  rebuiltBecause: string | undefined;
  /** Whose rows these are (see KeptSource.scope). */
  scope: string | undefined;
  /** Where this copy stands in the hub's change feed (opaque: the hub's, handed back as is). */
  cursor: string | undefined;
  /** Why the last read failed, until one succeeds: in the data, so a change never hides it. */
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
  /** Shows a state before the sync ends (a kept copy, a snapshot's pages so far); true if shown. */
  show(kept: Kept<T>): boolean;
  /** The seller asked for the newest (the hub reads the marketplace first when no webhook comes). */
  fresh?: boolean;
  signal?: AbortSignal | undefined;
}

/** The most rows a kept copy takes, whatever the hub sends: twice the largest catalogue we measure. */
export const MAX_KEPT_ROWS = 200_000;
/** How long a snapshot lets pages gather before showing them again. */
const showEveryMs = (rows: number) => Math.min(1500, Math.max(200, rows / 50));

/** The copy a sync starts from: the cache's, or this browser's kept one (shown once the hub knows it). */
async function startOf<T>(source: KeptSource<T>, context: SyncContext<T>) {
  const previous = context.current();
  if (previous?.cursor !== undefined) return { ...previous, fromDb: false };
  const stored = context.db
    ? await context.db.load<T>(source.collection).catch(() => undefined)
    : undefined;
  const head = stored?.head;
  if (!stored || head?.scope !== source.scope || head.cursor === undefined) return undefined;
  const { syncedAt, cursor, checkedAt } = head;
  return {
    rows: stored.rows,
    setAside: head.setAside ?? [],
    syncedAt,
    cursor,
    checkedAt,
    fromDb: true,
  };
}

/** Brings a kept collection up to date from the hub's replica (never the marketplace itself). */
export async function syncKept<T extends { id: string }>(
  source: KeptSource<T>,
  context: SyncContext<T>,
): Promise<Kept<T>> {
  const start = await startOf(source, context);
  let rows: T[] | undefined;
  /** Positions by id (made when a page changes rows the copy holds). */
  let at: Map<string, number> | undefined;
  let cursor = start?.cursor;
  let state: Kept<T> = {
    rows: start?.rows ?? [],
    complete: start !== undefined,
    pages: 0,
    setAside: start?.setAside ?? [],
    syncedAt: start?.syncedAt ?? new Date(0).toISOString(),
    checkedAt: start?.checkedAt,
    lastChanged: undefined,
    origin: start && (start.fromDb || context.current()?.origin === 'kept') ? 'kept' : 'walk',
    rebuiltBecause: undefined,
    scope: source.scope,
    cursor,
  };
  let changed = 0;
  let snapshot = false;
  /** When a state before the end was last shown (local ms). */
  let shownAt: number | undefined;
  let first = true;
  for (let fresh = context.fresh === true; ; fresh = false) {
    try {
      for await (const page of source.feed(cursor, { fresh, signal: context.signal })) {
        if (first && start?.fromDb && !page.whole) {
          // The hub knows this copy's cursor: the kept rows are its rows, shown before the changes.
          context.show(state);
        }
        first = false;
        if (page.whole) {
          // A snapshot: the rows start again (a kept copy of another replica or epoch goes).
          if (start && state.pages === 0 && state.rows.length > 0) {
            state = {
              ...state,
              rows: [],
              complete: false,
              rebuiltBecause: 'the hub’s store is another one or was reset',
            };
            context.show(state);
          }
          rows = [];
          at = new Map();
          snapshot = true;
          state = { ...state, origin: 'walk' };
        }
        if (page.rows.length > 0) {
          rows ??= state.rows.slice();
          at ??= new Map(rows.map((row, index) => [row.id, index]));
          for (const row of page.rows) {
            const index = at.get(row.id);
            if (index === undefined) {
              if (rows.length >= MAX_KEPT_ROWS)
                throw new Error('The hub sent more rows than a copy holds.');
              at.set(row.id, rows.push(row) - 1);
            } else rows[index] = row;
          }
          changed += page.rows.length;
        }
        cursor = page.cursor;
        const hidden = new Set(page.setAside.map((record) => record.id));
        // A record set aside is left out of the rows until a read returns it whole.
        const kept = rows ?? state.rows;
        state = {
          ...state,
          rows:
            hidden.size > 0
              ? kept.filter((row) => !hidden.has(row.id))
              : kept === state.rows
                ? kept
                : kept.slice(),
          pages: state.pages + 1,
          setAside: page.setAside,
          syncedAt: page.syncedAt ?? state.syncedAt,
          complete: page.filled && !page.more,
          cursor,
        };
        // A snapshot's pages are shown as they gather (showing derives and filters every row):
        // the first at once, then at most once a while, and the state it ends with.
        const now = Date.now();
        if (!page.more && !page.filled) context.show(state);
        else if (
          page.more &&
          (shownAt === undefined || now - shownAt >= showEveryMs(state.rows.length))
        ) {
          if (context.show(state)) shownAt = now;
        }
        // The hub's fill stopped: the rows it read stay shown, with why.
        if (page.failure && !page.filled) {
          const { requestId, ...failure } = page.failure;
          throw new ApiError({ ...failure, requestId: requestId ?? undefined });
        }
      }
    } catch (error) {
      // The hub could not be reached: this browser's copy is shown (its failure stays with it).
      if (first && start?.fromDb) context.show(state);
      throw error;
    }
    // The hub's first fill is still going: what it holds so far is shown, and asked again (the
    // hub holds that answer until its fill lands, or a second).
    if (state.complete || context.signal?.aborted) break;
  }
  // A snapshot brought every row: none of them is a change to count.
  return {
    ...state,
    checkedAt: Date.now(),
    lastChanged: snapshot ? undefined : changed,
  };
}
