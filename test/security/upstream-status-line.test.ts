import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { startAppOver } from '../support/fake-upstream';

/**
 * An upstream whose status line is no API answer: a status Node reads but no HTTP answer can carry
 * on (`999`, `600`, `000`: the proxy answered 500 `internal_error`, Fastify refusing the code), or
 * `101 Switching Protocols` to a plain call (Node hands the socket over and the call never ended:
 * neither deadline applied, and the governor's slot stayed taken for good). Each is now the API
 * not reached, 502 in the envelope, within the deadline, its slot given back.
 */
let app: RunningAppServer;
let statusLine = '';
const sockets = new Set<Socket>();
const upstream = createServer((socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
  socket.on('error', () => undefined);
  socket.on('data', () => {
    const upgrade = statusLine.startsWith('101');
    const head = upgrade
      ? 'upgrade: websocket\r\nconnection: upgrade\r\n'
      : 'content-type: application/json\r\ncontent-length: 2\r\n';
    // An upgraded socket is left open, as a server that switched protocols keeps it.
    socket.write(`HTTP/1.1 ${statusLine}\r\n${head}\r\n${upgrade ? '' : '{}'}`);
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  // A call waits for its answer's headers 3 s at most.
  app = await startAppOver(url, 'svc_live_StatusLineKey0000000000001', {
    proxy: { upstreamLimits: { headersMs: 3_000, silenceMs: 3_000 } },
  });
});

afterAll(async () => {
  await app?.close();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => upstream.close(resolve));
});

const listings = () =>
  fetch(`${app.url}/api/2026-07/listings.json`, { signal: AbortSignal.timeout(10_000) });

describe('a status line that is no API answer', () => {
  for (const line of ['999 Odd', '600 Odd', '000 Odd', '101 Switching Protocols']) {
    it(`${line}: 502 upstream_unreachable in the envelope, the slot given back`, async () => {
      statusLine = line;
      const started = Date.now();
      const answer = await listings();
      expect(answer.status).toBe(502);
      const body = (await answer.json()) as { errors: string; svc_error: { code: string } };
      expect(body.svc_error.code).toBe('upstream_unreachable');
      expect(body.errors).toContain(`status ${Number(line.split(' ')[0])}`);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(app.hub.governor.snapshot().inFlight).toBe(0);
    });
  }
});
