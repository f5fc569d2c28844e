import { once } from 'node:events';
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { IDLE_SOCKET_MS } from '../../src/server/upstream-call';
import { startAppOver, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';

/**
 * "`GET /ping -> 502` from our proxy: it reused a keep-alive connection the upstream had closed
 * after 5 s idle, and sent nothing." An upstream of our own that closes idle kept-alive
 * connections, with the race made certain: `closeIdle()` stands for the upstream's idle timeout
 * passing on every connection idle now, its close crossing the next request on the wire, so a
 * request that arrives on such a connection is met by the connection's end and no answer.
 */
interface Seen {
  method: string;
  url: string;
  key: string | undefined;
  body: string;
  /** The request came on a connection that had carried one before. */
  reused: boolean;
  /** The upstream closed the connection instead of answering. */
  dropped: boolean;
}

const seen: Seen[] = [];
/** Requests each connection has carried; a connection is idle once its answer is finished. */
const carried = new Map<Socket, number>();
const idle = new Set<Socket>();
/** Connections closed by the upstream's idle timeout (the close not yet seen by the client). */
const closed = new Set<Socket>();
/** Drop every request, on any connection (an upstream that keeps resetting). */
let dropAll = false;

let upstream: FakeUpstream;
let app: RunningAppServer;

function closeIdle(): number {
  for (const socket of idle) closed.add(socket);
  return idle.size;
}

beforeAll(async () => {
  upstream = await startFakeUpstream((request, response) => {
    const socket = request.socket;
    idle.delete(socket);
    const count = (carried.get(socket) ?? 0) + 1;
    carried.set(socket, count);
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const dropped = dropAll || closed.has(socket);
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        key: request.headers['idempotency-key'] as string | undefined,
        body,
        reused: count > 1,
        dropped,
      });
      if (dropped) {
        socket.destroy();
        return;
      }
      response.on('finish', () => idle.add(socket));
      response.writeHead(request.method === 'POST' ? 201 : 200, {
        'content-type': 'application/json',
        'x-service-api-call-limit': '1/40',
      });
      response.end(JSON.stringify({ ok: true, method: request.method }));
    });
  });
  // Only the client closes an idle connection here, unless a test says otherwise.
  upstream.server.keepAliveTimeout = 60_000;
  upstream.server.on('connection', (socket: Socket) =>
    socket.on('close', () => {
      idle.delete(socket);
      closed.delete(socket);
    }),
  );
  app = await startAppOver(upstream.url, 'svc_live_KeepAliveKey000000000000001');
});

afterEach(() => {
  dropAll = false;
});

afterAll(async () => {
  await app?.close();
  upstream?.server.closeAllConnections();
  await upstream?.close();
});

const sameOrigin = () => ({ 'sec-fetch-site': 'same-origin', origin: app.url });

async function call(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<{ status: number; json: { errors?: string; svc_error?: { code?: string } } }> {
  const response = await fetch(`${app.url}/api/2026-07${path}`, {
    method,
    headers: {
      ...sameOrigin(),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as never };
}

/** One answered GET, so the proxy holds a kept-alive connection; then the upstream closes it. */
async function connectionClosedWhileIdle(): Promise<void> {
  expect((await call('GET', '/ping')).status).toBe(200);
  expect(closeIdle()).toBeGreaterThan(0);
}

const seenSince = (from: number) => seen.slice(from);

describe('a kept-alive connection the upstream closed while idle', () => {
  it('is no error for a GET: sent again once on a new connection, answered 200', async () => {
    await connectionClosedWhileIdle();
    const from = seen.length;
    const second = await call('GET', '/ping');
    expect(second.status).toBe(200);
    const tries = seenSince(from);
    // The first try met the closed connection; the second went on a new one and was answered.
    expect(tries.map((one) => [one.method, one.reused, one.dropped])).toEqual([
      ['GET', true, true],
      ['GET', false, false],
    ]);
  });

  it('does not send a PUT without an Idempotency-Key again, and says its outcome is unknown', async () => {
    await connectionClosedWhileIdle();
    const from = seen.length;
    const put = await call('PUT', '/listings/lst_1.json', {}, { listing: { price: '12.00' } });
    expect(put.status).toBe(502);
    expect(put.json.svc_error?.code).toBe('upstream_unreachable');
    expect(put.json.errors).toMatch(/not sent again\. The change may or may not have been made/);
    const tries = seenSince(from);
    expect(tries.filter((one) => one.method === 'PUT')).toHaveLength(1);
    expect(tries).toHaveLength(1);
  });

  it('sends a POST with an Idempotency-Key again once, under the same key and body', async () => {
    await connectionClosedWhileIdle();
    const from = seen.length;
    const key = 'a7d3f0c2-5b1e-4c8a-9f6d-2e4b8c1a7f30';
    const listing = { listing: { sku: 'PSA-1', price: '25.00' } };
    const post = await call('POST', '/listings.json', { 'idempotency-key': key }, listing);
    expect(post.status).toBe(201);
    const tries = seenSince(from);
    expect(tries).toHaveLength(2);
    expect(tries.map((one) => [one.reused, one.dropped])).toEqual([
      [true, true],
      [false, false],
    ]);
    for (const one of tries) {
      expect(one).toMatchObject({ method: 'POST', key, body: JSON.stringify(listing) });
    }
  });

  it('sends a GET again only once: a reset on the new connection too is an error', async () => {
    await connectionClosedWhileIdle();
    dropAll = true;
    const from = seen.length;
    const answer = await call('GET', '/ping');
    expect(answer.status).toBe(502);
    expect(answer.json.svc_error?.code).toBe('upstream_unreachable');
    expect(seenSince(from).map((one) => [one.reused, one.dropped])).toEqual([
      [true, true],
      [false, true],
    ]);
  });

  it('is closed by us after a shorter idle time than the common 5 s', async () => {
    expect(IDLE_SOCKET_MS).toBeLessThan(5_000);
    // An upstream of its own (its own pool of connections) that keeps idle connections 60 s:
    // a close within that is the client's own.
    const quiet = await startFakeUpstream((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    });
    quiet.server.keepAliveTimeout = 60_000;
    const proxy = await startAppOver(quiet.url, 'svc_live_KeepAliveKey000000000000002');
    try {
      const opened = once(quiet.server, 'connection') as Promise<[Socket]>;
      const ping = await fetch(`${proxy.url}/api/2026-07/ping`, {
        headers: { 'sec-fetch-site': 'same-origin', origin: proxy.url },
      });
      expect(ping.status).toBe(200);
      await ping.arrayBuffer();
      const answeredAt = performance.now();
      const [socket] = await opened;
      if (!socket.closed) await once(socket, 'close');
      const idleMs = performance.now() - answeredAt;
      expect(idleMs).toBeGreaterThan(IDLE_SOCKET_MS - 500);
      expect(idleMs).toBeLessThan(5_000);
    } finally {
      await proxy.close();
      quiet.server.closeAllConnections();
      await quiet.close();
    }
  }, 15_000);
});
