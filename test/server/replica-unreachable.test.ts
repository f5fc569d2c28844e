import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplicaNotReadyError } from '../../src/server/replica/replica';
import { hub, markdownRule, startServer, startWorld, type World } from '../rules/rules-world';

/**
 * An upstream that answers every call 500 `internal_error`: the replica's fill fails, is caught and
 * logged (the server stays up), the rules answer 503 with a clear line, and once the upstream is
 * well the next round fills it.
 */
let world: World;
let broken = true;
let door: Server;
let doorUrl: string;

beforeAll(async () => {
  world = await startWorld();
  door = createServer((req, res) => {
    if (broken) {
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ errors: 'down', svc_error: { code: 'internal_error' } }));
      return;
    }
    // Well again: the sandbox answers through this door.
    void fetch(`${world.harness.url}${req.url}`, {
      headers: { 'x-service-access-token': world.token },
    }).then(async (answer) => {
      const headers: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (name !== 'content-encoding' && name !== 'content-length') headers[name] = value;
      });
      res.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => door.listen(0, '127.0.0.1', resolve));
  doorUrl = `http://127.0.0.1:${(door.address() as AddressInfo).port}`;
});

afterAll(async () => {
  door?.closeAllConnections();
  await new Promise((resolve) => door?.close(resolve));
  await world?.harness.close();
});

describe('an upstream that fails', () => {
  it('leaves the replica unfilled without throwing, the rules say so, and a later round fills it', async () => {
    const server = await startServer(world, {
      upstream: { baseUrl: doorUrl, apiKey: world.token },
    });
    try {
      await expect(server.replica.ready()).rejects.toBeInstanceOf(ReplicaNotReadyError);
      const preview = await hub<{ svc_error: { code: string } }>(server, 'POST', '/preview', {
        definition: markdownRule('RU-1'),
      });
      expect(preview.status).toBe(503);
      expect(preview.body.svc_error.code).toBe('listings_unreadable');
      // The server still answers.
      expect((await fetch(`${server.url}/hub/replica`)).status).toBe(200);

      broken = false;
      await server.replica.round();
      expect(server.replica.filled()).toBe(true);
      await expect(server.replica.ready()).resolves.toBeUndefined();
    } finally {
      await server.close();
    }
  }, 60_000);
});
