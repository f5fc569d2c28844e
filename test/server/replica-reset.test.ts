import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeListings, startServer, startWorld, type World } from '../rules/rules-world';
import { replicaStatus } from './replica-world';

/**
 * A reset store: the upstream at one address answers from one sandbox's store, then from
 * another's (as a deployment whose store was reset). Its fingerprint (the oldest listing) changes,
 * and the replica walks it again, once.
 */
let first: World;
let second: World;
let target: World;
let door: Server;
let doorUrl: string;

/** The one upstream address: forwards to `target`'s sandbox with its seller's key. */
async function startDoor(): Promise<void> {
  door = createServer((req, res) => {
    const upstream = new URL(target.harness.url);
    const headers: Record<string, string | string[] | undefined> = {
      ...req.headers,
      host: upstream.host,
      'x-service-access-token': target.token,
    };
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => door.listen(0, '127.0.0.1', resolve));
  doorUrl = `http://127.0.0.1:${(door.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  first = await startWorld();
  second = await startWorld();
  await makeListings(first, 'RR-1', [{ price: '50.00' }, { price: '60.00' }]);
  await makeListings(second, 'RR-2', [{ price: '70.00' }, { price: '80.00' }, { price: '90.00' }]);
  target = first;
  await startDoor();
});

afterAll(async () => {
  door?.closeAllConnections();
  await new Promise((resolve) => door?.close(resolve));
  await first?.harness.close();
  await second?.harness.close();
});

describe('a reset store', () => {
  it('is walked again once: the rows are the new store’s, the change number goes on', async () => {
    const server = await startServer(first, {
      upstream: { baseUrl: doorUrl, apiKey: 'svc_live_door' },
    });
    try {
      await server.replica.ready();
      const before = await replicaStatus(server);
      expect(before.collections.listings!.rows).toBe(2);
      expect(before.epoch).toBe(0);

      target = second;
      await server.replica.round();
      const after = await replicaStatus(server);
      expect(after.epoch).toBe(1);
      expect(after.collections.listings!.rows).toBe(3);
      expect(after.collections.inventory_items!.rows).toBe(3);
      expect(after.changeNumber).toBeGreaterThan(before.changeNumber);
      const prices = server.replica.store.changedSince('listings', 0).map((row) => row.body.price);
      expect(prices.sort()).toEqual(['70.00', '80.00', '90.00']);

      // Once: the next round finds the same store and walks nothing again.
      await server.replica.round();
      expect((await replicaStatus(server)).epoch).toBe(1);
      expect(server.replica.store.changeNumber()).toBe(after.changeNumber);
    } finally {
      await server.close();
    }
  });
});
