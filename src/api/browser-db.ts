import { wrap, type IDBPDatabase } from 'idb';

/** A database of this browser by its stores: each store's name and key path. */
export interface BrowserDbShape {
  name: string;
  stores: Readonly<Record<string, string | readonly string[]>>;
}

const missing = (db: IDBPDatabase, shape: BrowserDbShape) =>
  Object.keys(shape.stores).filter((store) => !db.objectStoreNames.contains(store));

/** Opens at `version` (undefined: the version it has, 1 when new), adding the stores it lacks. */
function openAt(
  factory: IDBFactory,
  shape: BrowserDbShape,
  version: number | undefined,
): Promise<IDBPDatabase> {
  const req = version === undefined ? factory.open(shape.name) : factory.open(shape.name, version);
  req.addEventListener('upgradeneeded', () => {
    const db = req.result;
    for (const [store, keyPath] of Object.entries(shape.stores)) {
      if (!db.objectStoreNames.contains(store)) {
        db.createObjectStore(store, { keyPath: keyPath as string | string[] });
      }
    }
  });
  // `wrap` over the factory's own request: tests pass an in-memory factory, not the global one.
  return wrap(req).then((db) => db ?? Promise.reject(new Error('IndexedDB open failed')));
}

/** The one IndexedDB opener: a missing store bumps the version; closes when another page asks. */
export async function openBrowserDb(
  factory: IDBFactory,
  shape: BrowserDbShape,
  onClosed?: () => void,
): Promise<IDBPDatabase> {
  let db = await openAt(factory, shape, undefined);
  if (missing(db, shape).length > 0) {
    const version = db.version + 1;
    db.close();
    db = await openAt(factory, shape, version);
  }
  const opened = db;
  opened.addEventListener('versionchange', () => {
    opened.close();
    onClosed?.();
  });
  return opened;
}

/** Deletes a database (sign-out); settles even when blocked, so sign-out never waits. */
export function deleteBrowserDb(factory: IDBFactory, name: string): Promise<void> {
  return new Promise((resolve) => {
    try {
      const request = factory.deleteDatabase(name);
      request.onsuccess = () => resolve();
      request.onerror = () => resolve();
      request.onblocked = () => resolve();
    } catch {
      resolve();
    }
  });
}
