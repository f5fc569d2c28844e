// idb recognises requests by the global IndexedDB classes: fake-indexeddb's, installed here.
import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { KeptDb } from '../../src/api/kept/kept-db';
import { keepCopies, keptOptions } from '../../src/api/kept/kept-persister';
import type { Kept } from '../../src/api/kept/kept-sync';

const rows = Array.from({ length: 2500 }, (_, i) => ({ id: `lst_${i}`, title: `Card ${i}` }));

function state(count: number, complete: boolean, pages: number): Kept<(typeof rows)[number]> {
  return {
    rows: rows.slice(0, count),
    complete,
    pages,
    setAside: [],
    syncedAt: '2026-07-01T00:00:00.000Z',
    checkedAt: complete ? 1 : undefined,
    lastChanged: undefined,
    origin: 'walk',
    rebuiltBecause: undefined,
    scope: 'v2|listings|test',
    cursor: 'c1',
  };
}

/** How many chunks of the collection the database holds, whether or not a head makes them a copy. */
function chunksIn(factory: IDBFactory): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = factory.open('slabdesk-kept');
    req.onerror = () => reject(req.error);
    req.onsuccess = () => {
      const count = req.result.transaction('chunks').objectStore('chunks').count();
      count.onsuccess = () => {
        req.result.close();
        resolve(count.result);
      };
    };
  });
}

/** The stored record of a chunk, as IndexedDB holds it. */
function chunkRecord(factory: IDBFactory, index: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const req = factory.open('slabdesk-kept');
    req.onerror = () => reject(req.error);
    req.onsuccess = () => {
      const get = req.result.transaction('chunks').objectStore('chunks').get(['listings', index]);
      get.onsuccess = () => {
        req.result.close();
        resolve(get.result as Record<string, unknown>);
      };
    };
  });
}

describe('the kept copies persister', () => {
  it('keeps a whole chunk as columns and a short one as its rows (no codec for a small copy)', async () => {
    const factory = new IDBFactory();
    const db = new KeptDb(factory, IDBKeyRange);
    const copy = { collection: 'listings', scope: 'v2|listings|test' };
    await db.putChunk(copy, 0, rows.slice(0, 1000));
    await db.putChunk(copy, 1, rows.slice(1000, 1010));
    expect(await chunkRecord(factory, 0)).toHaveProperty('parts');
    expect(await chunkRecord(factory, 0)).not.toHaveProperty('rows');
    expect(await chunkRecord(factory, 1)).toMatchObject({ rows: rows.slice(1000, 1010) });
    expect(await chunkRecord(factory, 1)).not.toHaveProperty('parts');
  });

  it('writes a walk’s chunks as they fill, and its head (a readable copy) when it ends', async () => {
    const factory = new IDBFactory();
    const db = new KeptDb(factory, IDBKeyRange);
    let written = 0;
    const putChunk = db.putChunk.bind(db);
    db.putChunk = (...args) => {
      written++;
      return putChunk(...args);
    };
    const queryClient = new QueryClient();
    const copies = keepCopies(queryClient, db);
    const queryKey = ['kept', 'listings'];
    queryClient.getQueryCache().build(queryClient, { queryKey, ...keptOptions('listings') });

    // The walk so far: two whole chunks are kept, the third (half full) is not yet.
    queryClient.setQueryData(queryKey, state(2500, false, 10));
    await copies.flush();
    expect(await chunksIn(factory)).toBe(2);
    expect(await db.load('listings')).toBeUndefined();

    // Its end: only the last chunk is left to write, then the head.
    queryClient.setQueryData(queryKey, state(2500, true, 10));
    await copies.flush();
    expect(written).toBe(3);
    expect((await db.load('listings'))?.rows).toEqual(rows);

    // A rebuild drops the copy as it starts.
    queryClient.setQueryData(queryKey, state(0, false, 0));
    await copies.flush();
    expect(await db.load('listings')).toBeUndefined();
    copies.unsubscribe();
  });
});
