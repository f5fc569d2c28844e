import { createAccountsStore } from './accounts-store';
import { createCatalogStore } from './catalog-store';
import { createIdempotencyStore } from './idempotency-store';
import { openDatabase } from './database';
import { createLevelsStore } from './levels-store';
import { createListingsStore } from './listings-store';
import { createMetaStore } from './meta-store';
import { TABLES } from './migrations';
import { createOrdersStore } from './orders-store';
import { createWebhooksStore } from './webhooks-store';

/** Every SQL statement of the sandbox lives under this folder; the rest of the code calls these. */
export function createStore(path: string) {
  const { db, close } = openDatabase(path);
  const wipe = db.transaction(() => {
    // Children before parents (the reverse of their making), for the foreign keys.
    for (const table of Object.keys(TABLES).reverse()) {
      if (table !== 'meta') db.prepare(`DELETE FROM ${table}`).run();
    }
    db.prepare(`DELETE FROM meta WHERE key NOT IN ('cursor_secret', 'epoch')`).run();
  });
  return {
    db,
    accounts: createAccountsStore(db),
    catalog: createCatalogStore(db),
    listings: createListingsStore(db),
    orders: createOrdersStore(db),
    levels: createLevelsStore(db),
    meta: createMetaStore(db),
    idempotency: createIdempotencyStore(db),
    webhooks: createWebhooksStore(db),
    /** Runs `fn` in one transaction (nested calls become savepoints). */
    transaction<T>(fn: () => T): T {
      return db.transaction(fn)();
    },
    /** Empties every table except the store's own identity (cursor secret and epoch). */
    wipe: (): void => wipe(),
    close,
  };
}

export type Store = ReturnType<typeof createStore>;
