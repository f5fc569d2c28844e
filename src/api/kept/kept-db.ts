/** Kept collections in IndexedDB: a head per collection and rows in fixed-size chunks. */
import type { IDBPDatabase } from 'idb';
import type { SetAsideRecord } from '../../client';
import { KEPT_DB } from '../../shared/browser-keeps';
import { openBrowserDb, type BrowserDbShape } from '../browser-db';
import type { ColumnChunk, decodeRows, encodeRows } from './column-chunk';

/** `KeptHead` records, keyed by collection name (one kept copy per collection). */
const HEADS = 'heads';
/** Row chunks (ChunkRecord), keyed `[collection, index]`. */
const CHUNKS = 'chunks';

/** Set before any chunk is written: without it nothing is kept and walks need not wait. */
const KEPT_MARKER = 'slabdesk-kept';

/** Where the marker lives: the page's localStorage (none in a test without one). */
export type KeptMarker = Pick<Storage, 'getItem' | 'setItem'>;

/** Rows per stored chunk. */
export const CHUNK_ROWS = 1000;

/** Rows encoded in one slice of the page's time (a few ms: see spareMoment). */
const SLICE_ROWS = 250;
/** The idle time that holds a whole chunk's encoding at once (1,000 listings: 7 to 9 ms). */
const WHOLE_CHUNK_MS = 20;
/** What a slice needs left of an idle period to start in it (ms). */
const SLICE_MS = 6;
/** The longest a slice waits for idle: short once rows are whole, longer while a walk draws. */
const IDLE_WAIT_MS = { whole: 100, walking: 1000 };

/** The idle period slices are running in now. */
let period: IdleDeadline | undefined;
const room = () => (period && !period.didTimeout ? period.timeRemaining() : 0);

/** A moment to spare (never a frame from typing; a hidden page never waits): its ms, or Infinity. */
function spareMoment(whole: boolean): Promise<number> {
  if (typeof document !== 'undefined' && document.visibilityState === 'hidden') {
    return Promise.resolve(Infinity);
  }
  if (typeof requestIdleCallback !== 'function') {
    return new Promise((ok) => setTimeout(() => ok(Infinity), 0));
  }
  if (room() >= SLICE_MS) return Promise.resolve(room());
  const timeout = whole ? IDLE_WAIT_MS.whole : IDLE_WAIT_MS.walking;
  return new Promise((ok) =>
    requestIdleCallback(
      (deadline) => {
        period = deadline;
        ok(room());
      },
      { timeout },
    ),
  );
}

/** A record set aside, with the API's time (ISO) of the read that last found it unreadable. */
export type KeptSetAside = SetAsideRecord & { seenAt: string };

/** What is kept of one collection, beside its rows. */
export interface KeptHead {
  collection: string;
  /** The identity the rows belong to (format version, key, mode, deployment): see kept-identity. */
  scope: string;
  /** The API's time the hub's last read of the collection began (ISO). */
  syncedAt: string;
  /** Where the copy stands in the hub's change feed (absent in heads written before: rebuilt). */
  cursor?: string;
  /** Local epoch ms of the last read that brought the copy up to date. */
  checkedAt: number;
  rowCount: number;
  chunkCount: number;
  /** The records set aside by id, with when last seen (absent in heads written before). */
  setAside?: KeptSetAside[];
}

interface ChunkRecord {
  collection: string;
  index: number;
  scope: string;
  /** The rows column by column (column-chunk, decisions/004) in slices, each encoded in a moment. */
  parts?: ColumnChunk[];
  /** The rows as they are: short chunks, rows the columns cannot hold. */
  rows?: unknown[];
}

/** The column codec, in a chunk of its own (only a page that reads or writes a copy needs it). */
let codecModule:
  Promise<{ decodeRows: typeof decodeRows; encodeRows: typeof encodeRows }> | undefined;
const codec = () => (codecModule ??= import('./column-chunk'));

/** Heads by collection; chunks by collection and index. */
const SHAPE: BrowserDbShape = {
  name: KEPT_DB,
  stores: { [HEADS]: 'collection', [CHUNKS]: ['collection', 'index'] },
};

/** The kept copies of the collections; every method fails soft (a copy is an optimisation). */
export class KeptDb {
  private db: Promise<IDBPDatabase> | undefined;

  constructor(
    private readonly factory: IDBFactory,
    /** The IDBKeyRange of the same implementation (the browser's by default). */
    private readonly keyRange: typeof IDBKeyRange = globalThis.IDBKeyRange,
    /** The "something may be kept" marker (see KEPT_MARKER); null: always look. */
    private readonly marker: KeptMarker | null = null,
  ) {}

  private database(): Promise<IDBPDatabase> {
    if (!this.db) {
      // Closed when the account's data is cleared (app/clear-account.ts): the next use opens anew.
      const opening = openBrowserDb(this.factory, SHAPE, () => {
        if (this.db === opening) this.db = undefined;
      });
      this.db = opening;
    }
    return this.db;
  }

  /** Closes the connection (the account's data is being cleared); a later use opens anew. */
  close(): void {
    const opening = this.db;
    this.db = undefined;
    void opening?.then((db) => db.close()).catch(() => undefined);
  }

  /** False when the marker says nothing was ever kept in this browser (no need to look). */
  mayHoldCopies(): boolean {
    return this.marker === null || this.marker.getItem(KEPT_MARKER) !== null;
  }

  /** Opens the database and loads the codec ahead of the first read (at start-up); never fails. */
  warm(): void {
    if (!this.mayHoldCopies()) return;
    this.database().catch(() => undefined);
    codec().catch(() => undefined);
  }

  /** The kept rows of `collection` (the caller checks `head.scope`), undefined if not whole. */
  async load<T>(collection: string): Promise<{ head: KeptHead; rows: T[] } | undefined> {
    if (!this.mayHoldCopies()) return undefined;
    const columns = codec();
    columns.catch(() => undefined); // awaited below, once there are chunks to read
    const db = await this.database();
    const tx = db.transaction([HEADS, CHUNKS], 'readonly');
    const head = (await tx.objectStore(HEADS).get(collection)) as KeptHead | undefined;
    if (!head) return undefined;
    if (head.chunkCount === 0) return { head, rows: [] };
    const range = this.keyRange.bound([collection, 0], [collection, head.chunkCount - 1]);
    const chunks = (await tx.objectStore(CHUNKS).getAll(range)) as ChunkRecord[];
    if (chunks.length !== head.chunkCount) return undefined;
    // Kept rows were validated when they came and the copy is versioned: not parsed again. Chunks
    // of plain rows read as they are; a chunk of neither form fails the check and the copy is
    // rebuilt.
    const { decodeRows } = await columns;
    const rows: T[] = [];
    for (const chunk of chunks) {
      if (chunk.scope !== head.scope) return undefined;
      if (chunk.parts) for (const part of chunk.parts) decodeRows(part, rows);
      else if (Array.isArray(chunk.rows)) for (const row of chunk.rows as T[]) rows.push(row);
      else return undefined;
    }
    return rows.length === head.rowCount ? { head, rows } : undefined;
  }

  /** Writes one chunk in spare moments (sooner once `whole`); unread until its head is written. */
  async putChunk<T>(
    copy: { collection: string; scope: string },
    index: number,
    rows: readonly T[],
    whole: () => boolean = () => true,
  ): Promise<void> {
    try {
      this.marker?.setItem(KEPT_MARKER, '1');
    } catch {
      // A full or refused localStorage: the copy is still written; a later load may skip it.
    }
    const db = await this.database();
    // A chunk short of CHUNK_ROWS (a copy's last, or a small copy's only one) is kept as its rows:
    // columns earn their time at many chunks, and a small copy's page then never loads the codec.
    if (rows.length < CHUNK_ROWS) {
      await spareMoment(whole());
      await db.put(CHUNKS, { ...copy, index, rows: rows.slice() } satisfies ChunkRecord);
      return;
    }
    const { encodeRows } = await codec();
    const parts: ColumnChunk[] = [];
    for (let from = 0; from < rows.length;) {
      // A long idle period takes the rest of the chunk in one part (fewer parts read faster).
      const size = (await spareMoment(whole())) >= WHOLE_CHUNK_MS ? rows.length : SLICE_ROWS;
      const part = encodeRows(rows.slice(from, from + size));
      if (!part) break;
      parts.push(part);
      from += size;
    }
    const record: ChunkRecord = {
      collection: copy.collection,
      index,
      scope: copy.scope,
      // Rows the columns cannot hold are stored as they are.
      ...(parts.reduce((n, part) => n + part.n, 0) === rows.length
        ? { parts }
        : { rows: rows.slice() }),
    };
    await spareMoment(whole());
    await db.put(CHUNKS, record);
  }

  /** Writes the head that makes the chunks a copy, dropping chunks past its count. */
  async putHead(head: KeptHead): Promise<void> {
    const db = await this.database();
    const tx = db.transaction([HEADS, CHUNKS], 'readwrite');
    void tx
      .objectStore(CHUNKS)
      .delete(this.keyRange.bound([head.collection, head.chunkCount], [head.collection, Infinity]));
    void tx.objectStore(HEADS).put(head);
    await tx.done;
  }

  /** Forgets the kept copy of a collection (a reset, or another key's copy). */
  async clear(collection: string): Promise<void> {
    if (!this.mayHoldCopies()) return;
    const db = await this.database();
    const tx = db.transaction([HEADS, CHUNKS], 'readwrite');
    void tx.objectStore(HEADS).delete(collection);
    void tx
      .objectStore(CHUNKS)
      .delete(this.keyRange.bound([collection, 0], [collection, Infinity]));
    await tx.done;
  }
}

let shared: KeptDb | null | undefined;

/** The page's localStorage, or null where it is missing or refused (then every load looks). */
function pageStorage(): KeptMarker | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // a browser that blocks storage throws on the mere access
  }
}

/** The browser's kept copies, or null where there is no IndexedDB (the copy then lives in memory). */
export function keptDb(): KeptDb | null {
  if (shared === undefined) {
    shared =
      typeof indexedDB === 'undefined' ? null : new KeptDb(indexedDB, IDBKeyRange, pageStorage());
  }
  return shared;
}
