import type { Query, QueryClient } from '@tanstack/react-query';
import { CHUNK_ROWS, keptDb, type KeptDb } from './kept-db';
import type { Kept } from './kept-sync';

/**
 * The options every kept collection's query shares: its name in the meta (what this persister
 * writes), and no garbage collection (a revisit shows the rows in memory, as a reload shows the
 * copy).
 */
export const keptOptions = (collection: string) => ({
  meta: { kept: collection },
  gcTime: Infinity,
});

/**
 * How long after a full walk its copy is written: the pages that just walked are still drawing
 * from the rows, and a write would take the page's idle moments from the drawing.
 */
const SAVE_AFTER_WALK_MS = 3000;
/** After a live patch or an incremental read (patches come in bursts). */
const SAVE_AFTER_CHANGE_MS = 1000;

interface Saved {
  rows: readonly unknown[];
  scope: string;
}

/** Which chunks of `rows` differ from what was saved (every row is compared by identity). */
function changedChunks(rows: readonly unknown[], saved: Saved | undefined, scope: string) {
  const chunks = new Set<number>();
  const same = saved?.scope === scope ? saved.rows : [];
  for (let i = 0; i < rows.length; i++) {
    if (same[i] !== rows[i]) chunks.add(Math.floor(i / CHUNK_ROWS));
  }
  return chunks;
}

/**
 * Keeps a copy of every kept collection in the query cache in IndexedDB: the query owns the rows,
 * and each complete state of them (a walk's end, an incremental read, a live patch) writes the
 * chunks that changed since the last write. A rebuild drops the old copy at once. Returns the
 * unsubscribe; `flush` writes what is pending now (tests, and before a reload).
 */
export function keepCopies(queryClient: QueryClient, db: KeptDb | null = keptDb()) {
  const saved = new Map<string, Saved>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const pending = new Map<string, Kept<unknown>>();
  let writing: Promise<void> = Promise.resolve();

  const write = (collection: string) => {
    clearTimeout(timers.get(collection));
    timers.delete(collection);
    const kept = pending.get(collection);
    pending.delete(collection);
    if (!db || !kept?.scope) return writing;
    const scope = kept.scope;
    writing = writing.then(async () => {
      const chunks = changedChunks(kept.rows, saved.get(collection), scope);
      const head = {
        collection,
        scope,
        syncedAt: kept.syncedAt,
        checkedAt: kept.checkedAt ?? Date.now(),
        rowCount: kept.rows.length,
        chunkCount: Math.ceil(kept.rows.length / CHUNK_ROWS),
      };
      try {
        await db.save(head, kept.rows, chunks);
        saved.set(collection, { rows: kept.rows, scope });
      } catch {
        // A copy is an optimisation: the next change writes again from the last saved rows.
      }
    });
    return writing;
  };

  const noted = (query: Query) => {
    const collection = (query.meta as { kept?: string } | undefined)?.kept;
    const kept = query.state.data as Kept<unknown> | undefined;
    if (!collection || !kept) return;
    if (!kept.complete) {
      // A rebuild: the old copy goes as it starts (a reload must not show it), after any write.
      saved.delete(collection);
      pending.delete(collection);
      clearTimeout(timers.get(collection));
      if (db && kept.pages === 0) {
        writing = writing.then(() => {
          saved.delete(collection); // a write that was under way set it again
          return db.clear(collection).catch(() => {});
        });
      }
      return;
    }
    // The copy just read from IndexedDB is what is saved already.
    if (kept.origin === 'kept' && kept.scope && kept.lastChanged === undefined) {
      saved.set(collection, { rows: kept.rows, scope: kept.scope });
      return;
    }
    pending.set(collection, kept);
    clearTimeout(timers.get(collection));
    const delay = saved.has(collection) ? SAVE_AFTER_CHANGE_MS : SAVE_AFTER_WALK_MS;
    timers.set(
      collection,
      setTimeout(() => void write(collection), delay),
    );
  };

  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'success') noted(event.query);
  });
  return {
    unsubscribe,
    /** Writes every pending copy now. */
    flush: () => Promise.all([...pending.keys()].map(write)).then(() => writing),
  };
}
