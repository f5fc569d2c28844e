import type { Query, QueryClient } from '@tanstack/react-query';
import { CHUNK_ROWS, keptDb, type KeptDb } from './kept-db';
import type { Kept } from './kept-sync';

/** Every kept query's options: its name in the meta, and no garbage collection. */
export const keptOptions = (collection: string) => ({
  meta: { kept: collection },
  gcTime: Infinity,
});

/** What IndexedDB holds of one collection: whose rows, and the rows as written (by identity). */
interface Written {
  scope: string;
  rows: unknown[];
}

/** Whether chunk `index` of `rows` differs from what was written (row by row, by identity). */
function chunkChanged(rows: readonly unknown[], written: readonly unknown[], index: number) {
  const end = Math.min((index + 1) * CHUNK_ROWS, Math.max(rows.length, written.length));
  for (let i = index * CHUNK_ROWS; i < end; i++) if (rows[i] !== written[i]) return true;
  return false;
}

/** Writes kept collections' changed chunks to IndexedDB in spare slices; returns unsubscribe. */
export function keepCopies(queryClient: QueryClient, db: KeptDb | null = keptDb()) {
  const written = new Map<string, Written>();
  /** The latest state of each collection not written yet. */
  const pending = new Map<string, Kept<unknown>>();
  /** Collections whose copy a rebuild dropped (before any newer state is written). */
  const dropped = new Set<string>();
  let running: Promise<void> | undefined;

  /** Writes one state's changed chunks (and its head when complete); stops at a newer state. */
  const writeState = async (store: KeptDb, collection: string, kept: Kept<unknown>) => {
    const scope = kept.scope;
    if (!scope) return; // whose rows these are is not known yet: the next state says
    let copy = written.get(collection);
    if (copy?.scope !== scope) written.set(collection, (copy = { scope, rows: [] }));
    const rows = kept.rows;
    // A walk's last chunk is written once it is full or the walk is over.
    const chunks = Math[kept.complete ? 'ceil' : 'floor'](rows.length / CHUNK_ROWS);
    // Sooner once the rows are whole: this state's, or a newer one's that came meanwhile.
    const whole = () => kept.complete || pending.get(collection)?.complete === true;
    for (let index = 0; index < chunks; index++) {
      if (dropped.has(collection)) return;
      if (!chunkChanged(rows, copy.rows, index)) continue;
      const from = index * CHUNK_ROWS;
      const slice = rows.slice(from, from + CHUNK_ROWS);
      await store.putChunk({ collection, scope }, index, slice, whole);
      for (let i = 0; i < slice.length; i++) copy.rows[from + i] = slice[i];
      // A newer state of the rows came meanwhile: write that one instead (it holds these).
      if (pending.has(collection)) return;
    }
    if (!kept.complete || dropped.has(collection)) return;
    copy.rows.length = rows.length;
    await store.putHead({
      collection,
      scope,
      syncedAt: kept.syncedAt,
      ...(kept.cursor === undefined ? {} : { cursor: kept.cursor }),
      checkedAt: kept.checkedAt ?? Date.now(),
      rowCount: rows.length,
      chunkCount: chunks,
      setAside: kept.setAside,
    });
  };

  const run = async (store: KeptDb) => {
    for (;;) {
      const collection = pending.keys().next().value ?? dropped.values().next().value;
      if (collection === undefined) return;
      const kept = pending.get(collection);
      pending.delete(collection);
      try {
        if (dropped.delete(collection)) {
          written.delete(collection);
          await store.clear(collection).catch(() => undefined);
        }
        if (kept) await writeState(store, collection, kept);
      } catch {
        // A copy is an optimisation: the next state writes again what differs from the copy.
        written.delete(collection);
      }
    }
  };

  const kick = () => {
    if (!db || running) return;
    running = run(db).finally(() => {
      running = undefined;
      if (pending.size > 0 || dropped.size > 0) kick();
    });
  };

  const noted = (query: Query) => {
    const collection = (query.meta as { kept?: string } | undefined)?.kept;
    const kept = query.state.data as Kept<unknown> | undefined;
    if (!collection || !kept) return;
    // The copy just read from IndexedDB is what is written already.
    if (kept.origin === 'kept' && kept.scope && kept.lastChanged === undefined) {
      written.set(collection, { scope: kept.scope, rows: kept.rows.slice() });
      return;
    }
    // A rebuild: the old copy goes as it starts (a reload must not show it).
    if (!kept.complete && kept.pages === 0) {
      dropped.add(collection);
      pending.delete(collection);
    } else pending.set(collection, kept);
    kick();
  };

  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'success') noted(event.query);
  });
  return {
    unsubscribe,
    /** Writes every pending state now; resolves when all is written. */
    flush: async () => {
      kick();
      while (running) await running;
    },
  };
}
