import { request as httpRequest, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { startAppOver, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';

/**
 * "10 calls to one hung upstream path block every tab for over 100 s": an upstream whose `/hang`
 * never answers. Each call has a deadline (short here, an option): past it the call is given up,
 * its governor slot freed, and the browser told 504 `upstream_timeout`. And one tab's hung calls
 * hold at most its share of the slots: another session's call goes at once meanwhile.
 */
const DEADLINE_MS = 1000;
let upstream: FakeUpstream;
let app: RunningAppServer;
const hung = new Set<ServerResponse>();

/** Waits until the governor holds `calls` calls, in flight or waiting for a slot. */
const holding = (calls: number) =>
  vi.waitFor(() => {
    const { inFlight, waiting } = app.hub.governor.snapshot();
    expect(inFlight + waiting).toBe(calls);
  });

beforeAll(async () => {
  upstream = await startFakeUpstream((request, response) => {
    if (request.url?.includes('/hang')) {
      hung.add(response);
      return;
    }
    response.writeHead(200, {
      'content-type': 'application/json',
      'x-service-api-call-limit': '1/40',
    });
    response.end(JSON.stringify({ ok: true }));
  });
  app = await startAppOver(upstream.url, 'svc_live_DeadlineKey0000000000000001', {
    proxy: { upstreamLimits: { headersMs: DEADLINE_MS, silenceMs: DEADLINE_MS } },
  });
  // A dashboard in use: the governor has learnt the bucket's level from an answer.
  expect((await fetch(`${app.url}/api/2026-07/ping`)).status).toBe(200);
});

afterAll(async () => {
  await app?.close();
  upstream?.server.closeAllConnections();
  await upstream?.close();
});

interface Answer {
  status: number;
  code: string | undefined;
}

/** One GET from the given local address (each address its own share with sign-in off). */
function get(
  path: string,
  localAddress = '127.0.0.1',
  timeoutMs = 15_000,
  base = app.url,
): Promise<Answer> {
  const target = new URL(base);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: target.hostname, port: target.port, path, localAddress, timeout: timeoutMs },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => {
          let code: string | undefined;
          try {
            code = (JSON.parse(body) as { svc_error?: { code?: string } }).svc_error?.code;
          } catch {
            code = undefined;
          }
          resolve({ status: response.statusCode ?? 0, code });
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end();
  });
}

describe('calls to a hung upstream path', () => {
  it("leave another session's call its slot: answered at once while they hang", async () => {
    const hanging = Array.from({ length: 10 }, () =>
      get('/api/2026-07/listings/hang.json', '127.0.0.1').catch(() => undefined),
    );
    await holding(10);
    const started = Date.now();
    const other = await get('/api/2026-07/ping', '127.0.0.2', 5000);
    expect(other.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS / 2);
    await Promise.allSettled(hanging);
  }, 30_000);

  it('are given up at the deadline with 504 upstream_timeout, and the same tab goes on', async () => {
    const started = Date.now();
    const hanging = Array.from({ length: 10 }, () =>
      get('/api/2026-07/listings/hang.json').then((answer) => ({
        ...answer,
        after: Date.now() - started,
      })),
    );
    await holding(10);
    const healthy = await get('/api/2026-07/ping', '127.0.0.1', 8000);
    const healthyAfter = Date.now() - started;
    // Behind its own tab's hung calls it waits for a turn at most its own deadline: answered, or
    // given up unsent with 504 upstream_timeout, never after the hung calls one deadline after
    // another.
    if (healthy.status !== 200)
      expect(healthy).toMatchObject({ status: 504, code: 'upstream_timeout' });
    expect(healthyAfter).toBeLessThan(2 * DEADLINE_MS + 500);
    const answers = await Promise.all(hanging);
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 504, code: 'upstream_timeout' });
      expect(answer.after).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    }
    // Every slot is free again.
    expect(app.hub.governor.snapshot()).toMatchObject({ inFlight: 0, waiting: 0 });
    // And the same tab goes on.
    expect((await get('/api/2026-07/ping', '127.0.0.1', 8000)).status).toBe(200);
  }, 30_000);

  it("on a fresh server, a hung first call holds another session's call briefly only", async () => {
    const fresh = await startAppOver(upstream.url, 'svc_live_DeadlineKey0000000000000003', {
      proxy: { upstreamLimits: { headersMs: 20_000, silenceMs: 20_000 } },
    });
    const hungBefore = hung.size;
    const first = new AbortController();
    const hangingFirst = fetch(`${fresh.url}/api/2026-07/listings/hang.json`, {
      signal: first.signal,
    }).catch(() => undefined);
    try {
      await vi.waitFor(() => expect(hung.size).toBe(hungBefore + 1));
      const started = Date.now();
      const other = await get('/api/2026-07/ping', '127.0.0.2', 15_000, fresh.url);
      expect(other.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      // The browser leaves: the server closes now, not at the hung call's 20 s bound.
      first.abort();
      await hangingFirst;
      await fresh.close();
    }
  }, 30_000);

  it('gives up a body that stops coming at the silence bound, 504 as well', async () => {
    const slow = await startFakeUpstream((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"listings":['); // and nothing more
    });
    const slowApp = await startAppOver(slow.url, 'svc_live_DeadlineKey0000000000000002', {
      proxy: { upstreamLimits: { headersMs: 5000, silenceMs: DEADLINE_MS } },
    });
    try {
      const started = Date.now();
      const answer = await fetch(`${slowApp.url}/api/2026-07/listings.json`, {
        signal: AbortSignal.timeout(8000),
      });
      expect(answer.status).toBe(504);
      const body = (await answer.json()) as { svc_error: { code: string } };
      expect(body.svc_error.code).toBe('upstream_timeout');
      expect(Date.now() - started).toBeLessThan(3 * DEADLINE_MS);
    } finally {
      await slowApp.close();
      slow.server.closeAllConnections();
      await slow.close();
    }
  }, 20_000);
});
