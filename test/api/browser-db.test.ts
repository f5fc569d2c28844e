// The IndexedDB globals the browser has (idb recognises requests by them); each test opens its own
// factory.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { deleteBrowserDb, openBrowserDb, type BrowserDbShape } from '../../src/api/browser-db';

const SHAPE: BrowserDbShape = {
  name: 'slabdesk-test',
  stores: { heads: 'id', rows: ['job', 'index'] },
};

/** Opens `name` at its version with no store (as a tool or a page of another build might). */
function openBare(factory: IDBFactory, name: string, version: number): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name, version);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('open failed'));
  });
}

describe('the one IndexedDB opener', () => {
  it('makes a new database with its stores, and what is written is there when opened again', async () => {
    const factory = new IDBFactory();
    const db = await openBrowserDb(factory, SHAPE);
    expect(db.version).toBe(1);
    expect([...db.objectStoreNames].sort()).toEqual(['heads', 'rows']);
    await db.put('heads', { id: 'a', label: 'first' });
    await db.put('rows', { job: 'a', index: 0, price: '12.50' });
    db.close();

    const again = await openBrowserDb(factory, SHAPE);
    expect(again.version).toBe(1);
    expect(await again.get('heads', 'a')).toEqual({ id: 'a', label: 'first' });
    expect(await again.get('rows', ['a', 0])).toEqual({ job: 'a', index: 0, price: '12.50' });
    again.close();
  });

  it('moves a database that lacks a store on by one version, adding it and keeping the rest', async () => {
    const factory = new IDBFactory();
    const bare = await openBare(factory, SHAPE.name, 3);
    bare.close();

    const db = await openBrowserDb(factory, SHAPE);
    expect(db.version).toBe(4);
    expect([...db.objectStoreNames].sort()).toEqual(['heads', 'rows']);
    db.close();
  });

  it('lets a deletion through: the open connection closes and says so, and the data is gone', async () => {
    const factory = new IDBFactory();
    let closed = 0;
    const db = await openBrowserDb(factory, SHAPE, () => closed++);
    await db.put('heads', { id: 'a' });

    await deleteBrowserDb(factory, SHAPE.name);
    expect(closed).toBe(1);
    const names = (await factory.databases()).map((database) => database.name);
    expect(names).not.toContain(SHAPE.name);

    const fresh = await openBrowserDb(factory, SHAPE);
    expect(await fresh.get('heads', 'a')).toBeUndefined();
    fresh.close();
  });
});
