import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import {
  finished,
  hub,
  makeListings,
  markdownRule,
  startServer,
  startWorld,
  type World,
} from './rules-world';

let world: World;
let upstream: Server;
let server: RunningAppServer;
/** The listing whose writes the upstream refuses with a code no table of ours names. */
let refused = '';

beforeAll(async () => {
  world = await startWorld();
  const target = new URL(world.harness.url);
  // The sandbox behind a forwarder that answers one listing's writes itself.
  upstream = createServer((incoming, outgoing) => {
    if (refused && incoming.method === 'PUT' && incoming.url?.includes(refused)) {
      const body = { errors: 'odd', svc_error: { code: 'constructor', request_id: 'r-1' } };
      outgoing.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    const forwarded = request(
      { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (name !== 'host' && value !== undefined) forwarded.setHeader(name, value);
    }
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { port } = upstream.address() as AddressInfo;
  server = await startServer(world, {
    upstream: { baseUrl: `http://127.0.0.1:${port}`, apiKey: world.token },
  });
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => upstream?.close(resolve));
  await world?.harness.close();
});

it('a refusal whose code names an inherited member (constructor) is a failed item with plain words', async () => {
  const [odd, plain] = await makeListings(world, 'OD-1', [
    { price: '200.00', cost: '50.00' },
    { price: '200.00', cost: '50.00' },
  ]);
  refused = odd!.id;
  const created = await hub<{ rule: { id: number } }>(server, 'POST', '', markdownRule('OD-1'));
  expect(created.status).toBe(201);
  const started = await hub<{ run: { id: number } }>(
    server,
    'POST',
    `/${created.body.rule.id}/run`,
  );
  expect(started.status).toBe(202);
  const done = await finished(server, started.body.run.id);
  expect(done.items.find((item) => item.listingId === odd!.id)).toMatchObject({
    state: 'failed',
    reason: 'constructor',
    why: 'the marketplace refused the change',
  });
  expect(done.items.find((item) => item.listingId === plain!.id)).toMatchObject({
    state: 'done',
  });
  expect(done.run).toMatchObject({ status: 'done', counts: { changed: 1, failed: 1 } });
});
