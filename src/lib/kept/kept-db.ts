/**
 * The kept collections in the browser's IndexedDB: one head record per collection (which key,
 * mode and deployment it belongs to, the sync baseline, how many rows) and the rows in fixed-size
 * chunks, so bringing the copy up to date rewrites only the chunks that changed.
 */

const DB_NAME = 'slabdesk-kept';
const DB_VERSION = 1;
/** `KeptHead` records, keyed by collection name (one kept copy per collection). */
const HEADS = 'heads';
/** Row chunks, keyed `[collection, index]`: `{ collection, index, scope, rows }`. */
const CHUNKS = 'chunks';

/** Rows per stored chunk. */
export const CHUNK_ROWS = 1000;

/** What is kept of one collection, beside its rows. */
export interface KeptHead {
  collection: string;
  /** The identity the rows belong to (format version, key, mode, deployment): see kept-identity. */
  scope: string;
  /** The API's time the last full or incremental read started from (ISO). */
  syncedAt: string;
  /** Local epoch ms of the last read that brought the copy up to date. */
  checkedAt: number;
  rowCount: number;
  chunkCount: number;
}

interface ChunkRecord<T> {
  collection: string;
  index: number;
  scope: string;
  rows: T[];
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

function open(factory: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = factory.open(DB_NAME, DB_VERSION);
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(HEADS))
        db.createObjectStore(HEADS, { keyPath: 'collection' });
      if (!db.objectStoreNames.contains(CHUNKS)) {
        db.createObjectStore(CHUNKS, { keyPath: ['collection', 'index'] });
      }
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB open failed'));
  });
}

/** The kept copies of the collections; every method fails soft (a copy is an optimisation). */
export class KeptDb {
  private db: Promise<IDBDatabase> | undefined;

  constructor(
    private readonly factory: IDBFactory,
    /** The IDBKeyRange of the same implementation (the browser's by default). */
    private readonly keyRange: typeof IDBKeyRange = globalThis.IDBKeyRange,
  ) {}

  private database(): Promise<IDBDatabase> {
    this.db ??= open(this.factory);
    return this.db;
  }

  /** The kept rows of `collection` when they belong to `scope`; undefined otherwise. */
  async load<T>(
    collection: string,
    scope: string,
  ): Promise<{ head: KeptHead; rows: T[] } | undefined> {
    const db = await this.database();
    const tx = db.transaction([HEADS, CHUNKS], 'readonly');
    const head = (await request(tx.objectStore(HEADS).get(collection))) as KeptHead | undefined;
    if (!head || head.scope !== scope) return undefined;
    if (head.chunkCount === 0) return { head, rows: [] };
    const range = this.keyRange.bound([collection, 0], [collection, head.chunkCount - 1]);
    const chunks = (await request(tx.objectStore(CHUNKS).getAll(range))) as ChunkRecord<T>[];
    if (chunks.length !== head.chunkCount) return undefined;
    const rows: T[] = [];
    for (const chunk of chunks) {
      if (chunk.scope !== scope) return undefined;
      for (const row of chunk.rows) rows.push(row);
    }
    return rows.length === head.rowCount ? { head, rows } : undefined;
  }

  /**
   * Writes the head and the given chunks of rows (by chunk index) in one transaction, and drops
   * chunks past the head's count (a rebuilt, shorter copy leaves none behind).
   */
  async save<T>(head: KeptHead, rows: readonly T[], chunks: Iterable<number>): Promise<void> {
    const db = await this.database();
    const tx = db.transaction([HEADS, CHUNKS], 'readwrite');
    const store = tx.objectStore(CHUNKS);
    for (const index of chunks) {
      if (index >= head.chunkCount) continue;
      const record: ChunkRecord<T> = {
        collection: head.collection,
        index,
        scope: head.scope,
        rows: rows.slice(index * CHUNK_ROWS, (index + 1) * CHUNK_ROWS),
      };
      store.put(record);
    }
    store.delete(
      this.keyRange.bound([head.collection, head.chunkCount], [head.collection, Infinity]),
    );
    tx.objectStore(HEADS).put(head);
    await done(tx);
  }

  /** Forgets the kept copy of a collection (a reset, or another key's copy). */
  async clear(collection: string): Promise<void> {
    const db = await this.database();
    const tx = db.transaction([HEADS, CHUNKS], 'readwrite');
    tx.objectStore(HEADS).delete(collection);
    tx.objectStore(CHUNKS).delete(this.keyRange.bound([collection, 0], [collection, Infinity]));
    await done(tx);
  }
}

let shared: KeptDb | null | undefined;

/** The browser's kept copies, or null where there is no IndexedDB (the copy then lives in memory). */
export function keptDb(): KeptDb | null {
  if (shared === undefined) {
    shared = typeof indexedDB === 'undefined' ? null : new KeptDb(indexedDB, IDBKeyRange);
  }
  return shared;
}
