import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import {
  hub,
  makeListings,
  markdownRule,
  startServer,
  startWorld,
  type World,
} from '../rules/rules-world';
import { replicaStatus, sandboxRows } from './replica-world';

/**
 * The hub's replica against a real sandbox over HTTP: its first fill is the sandbox's collections,
 * a degraded record is reported and kept by id until a read returns it whole.
 */
let world: World;
let made: { id: string; cardId: string }[];

beforeAll(async () => {
  world = await startWorld();
  made = await makeListings(
    world,
    'RF-1',
    Array.from({ length: 12 }, (_, i) => ({ price: `${100 + i}.00`, cost: '20.00' })),
  );
  // A sale makes an order; a card never listed is an inventory item alone.
  expect((await world.harness.control('POST', `/listings/${made[0]!.id}/sell`, {})).status).toBe(
    200,
  );
  await world.harness.control('POST', '/inventory_items', {
    seller_id: world.sellerId,
    cert_number: 'RF-UNLISTED-1',
    grader: 'PSA',
    cost: '5.00',
  });
});

afterAll(async () => {
  await world?.harness.close();
});

const ids = (rows: { id?: unknown; inventory_item_id?: unknown }[], key = 'id') =>
  rows.map((row) => String((row as Record<string, unknown>)[key])).sort();

describe('the first fill', () => {
  let server: RunningAppServer;
  beforeAll(async () => {
    server = await startServer(world);
    await server.replica.ready();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('holds every collection as the sandbox answers it, each row with a change number', async () => {
    const sandbox = {
      listings: await sandboxRows(world, world.token, '/listings.json', 'listings'),
      orders: await sandboxRows(world, world.token, '/orders.json', 'orders'),
      inventory_items: await sandboxRows(
        world,
        world.token,
        '/inventory_items.json',
        'inventory_items',
      ),
      inventory_levels: await sandboxRows(
        world,
        world.token,
        '/inventory_levels.json',
        'inventory_levels',
      ),
    };
    const store = server.replica.store;
    expect(sandbox.listings).toHaveLength(12);
    expect(sandbox.orders).toHaveLength(1);
    expect(sandbox.inventory_items).toHaveLength(13);
    expect(ids(store.changedSince('listings', 0))).toEqual(ids(sandbox.listings));
    expect(ids(store.changedSince('orders', 0))).toEqual(ids(sandbox.orders));
    expect(ids(store.changedSince('inventory_items', 0))).toEqual(ids(sandbox.inventory_items));
    expect(ids(store.changedSince('inventory_levels', 0))).toEqual(
      ids(sandbox.inventory_levels, 'inventory_item_id'),
    );
    expect(store.changedSince('locations', 0)).toHaveLength(2);
    // The rows are the records as read: price, status and the record's own updated_at.
    for (const row of sandbox.listings) {
      const kept = store.row('listings', String(row.id))!;
      expect(kept.body).toMatchObject({ price: row.price, status: row.status });
      expect(kept.updatedAt).toBe(row.updated_at);
    }
    const changes = store.changedSince('listings', 0).map((row) => row.change);
    expect(new Set(changes).size).toBe(changes.length);
    expect(Math.max(...changes)).toBeLessThanOrEqual(store.changeNumber());
    const status = await replicaStatus(server);
    expect(status.collections.listings).toMatchObject({ rows: 12, filled: true });
    expect(status.degraded).toEqual([]);
  });

  it('a reconciliation that finds nothing new changes no row and no change number', async () => {
    const before = server.replica.store.changeNumber();
    await server.replica.round();
    expect(server.replica.store.changeNumber()).toBe(before);
  });
});

describe('a key without every read scope', () => {
  it('fills what it may read, holds the rest empty, and the rules still preview', async () => {
    const key = await world.harness.control<{ key: { token: string } }>('POST', '/keys', {
      seller_id: world.sellerId,
      mode: 'live',
      scopes: ['write_listings', 'read_listings', 'read_inventory'],
    });
    const server = await startServer(world, {
      upstream: { baseUrl: world.harness.url, apiKey: key.body.key.token },
    });
    try {
      await server.replica.ready();
      const status = await replicaStatus(server);
      expect(status.collections.orders).toMatchObject({ rows: 0, denied: true });
      expect(status.collections.listings).toMatchObject({ rows: 12, filled: true });
      const preview = await hub<{ read: number }>(server, 'POST', '/preview', {
        definition: markdownRule('RF-1'),
      });
      expect(preview.status).toBe(200);
      expect(preview.body.read).toBe(12);
    } finally {
      await server.close();
    }
  });
});

describe('a degraded record', () => {
  it('is reported by id, kept after a reconciliation that does not return it, and dropped once read whole', async () => {
    const degraded = made[5]!.id;
    // A listing last changed an hour ago (the sandbox's own record of it), now unreadable.
    world.harness.sandbox.context.store.db
      .prepare('UPDATE listings SET updated_at = updated_at - 3600000 WHERE id = ?')
      .run(degraded);
    await world.harness.control('PUT', '/faults', { degraded_ids: [degraded] });
    const server = await startServer(world);
    try {
      await server.replica.ready();
      let status = await replicaStatus(server);
      expect(status.degraded).toMatchObject([{ collection: 'listings', id: degraded }]);
      expect(server.replica.store.row('listings', degraded)).toBeUndefined();
      const firstSeen = status.degraded[0]!.lastSeen;

      // Another listing changes: the updated_at_min read returns it, not the degraded one.
      const other = made[6]!.id;
      const put = await world.harness.api(`/listings/${other}.json`, {
        token: world.token,
        method: 'PUT',
        body: { listing: { price: '150.00' } },
      });
      expect(put.status).toBe(200);
      await server.replica.round();
      expect(server.replica.store.row('listings', other)?.body.price).toBe('150.00');
      status = await replicaStatus(server);
      expect(status.degraded).toMatchObject([{ collection: 'listings', id: degraded }]);
      expect(status.degraded[0]!.lastSeen).toBe(firstSeen);

      // Whole again and changed: the next read returns it, and it is no longer set aside.
      await world.harness.control('PUT', '/faults', { degraded_ids: [] });
      const fixed = await world.harness.api(`/listings/${degraded}.json`, {
        token: world.token,
        method: 'PUT',
        body: { listing: { price: '175.00' } },
      });
      expect(fixed.status).toBe(200);
      await server.replica.round();
      status = await replicaStatus(server);
      expect(status.degraded).toEqual([]);
      expect(server.replica.store.row('listings', degraded)?.body.price).toBe('175.00');
    } finally {
      await server.close();
      await world.harness.control('PUT', '/faults', { degraded_ids: [] });
    }
  });
});
