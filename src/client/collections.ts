import type * as z from 'zod/mini';
import type { SetAsideRecord } from './parse-rows';
import type { Transport } from './transport';
import { walkPages, type CollectionSpec, type WalkOptions } from './walk-pages';

// The collection reads' parts, for importers of this module.
export * from './parse-rows';
export * from './walk-pages';

export interface LoadProgress {
  rows: number;
  pages: number;
  setAside: number;
}

export interface LoadOptions extends WalkOptions {
  onProgress?: (progress: LoadProgress) => void;
}

/** What a whole-collection load returns; `syncedAt` is the baseline for a later refresh. */
export interface CollectionSnapshot<T> {
  rows: T[];
  setAside: SetAsideRecord[];
  pages: number;
  restarts: number;
  /** The API's time (ISO) at or before the first page was read: every later change is after it. */
  syncedAt: string;
}

/** Loads a whole collection, reporting progress; abort it with `signal`. */
export async function loadAll<S extends z.ZodMiniObject>(
  transport: Transport,
  spec: CollectionSpec<S>,
  options: LoadOptions = {},
): Promise<CollectionSnapshot<z.infer<S>>> {
  // The baseline for a later refresh: the API's time before the first page was read. With the
  // clock learned from /ping it is that (less a second for the way there); otherwise the earlier
  // of our estimate and the first page's `Date` (whole seconds, so one second earlier).
  const fromPing = transport.clockSource === 'ping';
  let baseline = transport.serverNow() - (fromPing ? 1000 : 0);
  const rows: z.infer<S>[] = [];
  const setAside: SetAsideRecord[] = [];
  let pages = 0;
  let restarts = 0;
  for await (const page of walkPages(transport, spec, options)) {
    if (pages === 0 && !fromPing && page.meta.serverDate !== undefined) {
      baseline = Math.min(baseline, page.meta.serverDate - 1000);
    }
    pages++;
    restarts = page.restarts;
    rows.push(...page.rows);
    setAside.push(...page.setAside);
    options.onProgress?.({ rows: rows.length, pages, setAside: setAside.length });
  }
  return { rows, setAside, pages, restarts, syncedAt: new Date(baseline).toISOString() };
}

export interface RefreshOptions extends Omit<WalkOptions, 'updatedAtMin'> {
  /** Clock-skew overlap subtracted from the baseline (default 5 s). */
  overlapMs?: number;
}

export interface RefreshResult<T> extends CollectionSnapshot<T> {
  /** Rows that came back changed or new, merged into `rows`. */
  changed: T[];
}

/** Reads rows updated since `syncedAt` (less a skew overlap) and merges them by key. */
export async function refresh<S extends z.ZodMiniObject>(
  transport: Transport,
  spec: CollectionSpec<S>,
  snapshot: Pick<CollectionSnapshot<z.infer<S>>, 'rows' | 'syncedAt'>,
  options: RefreshOptions = {},
): Promise<RefreshResult<z.infer<S>>> {
  const since = Date.parse(snapshot.syncedAt) - (options.overlapMs ?? 5000);
  const loaded = await loadAll(transport, spec, {
    ...options,
    updatedAtMin: new Date(since).toISOString(),
  });
  const key = (row: z.infer<S>) => String((row as Record<string, unknown>)[spec.keyField]);
  const index = new Map<string, number>();
  const rows = [...snapshot.rows];
  rows.forEach((row, i) => index.set(key(row), i));
  for (const row of loaded.rows) {
    const at = index.get(key(row));
    if (at === undefined) {
      index.set(key(row), rows.length);
      rows.push(row);
    } else rows[at] = row;
  }
  return { ...loaded, rows, changed: loaded.rows };
}
