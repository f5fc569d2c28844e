import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { Browser, fakeDist, usersDb } from './auth-http';

/**
 * "A viewer queues 140 GETs; the owner's next call waits 49 s": the key's bucket is full (every
 * answer says `40/40`, so the governor lets about two calls a second go), a signed-in viewer sends
 * 140 GETs at once, then the owner opens a page. The sessions take turns in the governor: the
 * owner's call goes within a turn or two, and the viewer's flood past its bound is refused at once
 * with 429 `too_many_waiting` and a `Retry-After`.
 */
const PASSWORD = 'a long password';
let upstream: FakeUpstream;
let app: RunningAppServer;
const flood = new AbortController();

beforeAll(async () => {
  upstream = await startFakeUpstream((request, response) => {
    response.writeHead(200, {
      'content-type': 'application/json',
      'x-service-api-call-limit': '40/40',
      'x-service-api-mode': 'live',
    });
    response.end(JSON.stringify({ ok: true, path: request.url }));
  });
  const db = await usersDb([
    { name: 'olive', role: 'owner', password: PASSWORD },
    { name: 'victor', role: 'viewer', password: PASSWORD },
  ]);
  app = await startAppServer(
    {
      upstream: { baseUrl: upstream.url, apiKey: 'svc_live_FairShareKey00000000000001' },
      port: 0,
      auth: { usersDb: db, requireSignIn: true },
    },
    async () => distPages(fakeDist()),
  );
});

afterAll(async () => {
  flood.abort();
  await app?.close();
  upstream?.server.closeAllConnections();
  await upstream?.close();
});

interface Sent {
  status: number;
  code: string | undefined;
  retryAfter: string | null;
}

async function get(cookie: string, path: string, signal: AbortSignal): Promise<Sent> {
  const answer = await fetch(`${app.url}${path}`, { headers: { cookie }, signal });
  const body = (await answer.json()) as { svc_error?: { code?: string } };
  return {
    status: answer.status,
    code: body.svc_error?.code,
    retryAfter: answer.headers.get('retry-after'),
  };
}

describe("a viewer's flood of GETs", () => {
  it("leaves the owner's call its turn: answered within seconds, not after the flood", async () => {
    const host = `127.0.0.1:${app.port}`;
    const viewer = new Browser(app.url, host);
    const owner = new Browser(app.url, host);
    expect((await viewer.signIn('victor', PASSWORD)).status).toBe(303);
    expect((await owner.signIn('olive', PASSWORD)).status).toBe(303);

    // The bucket learns it is full from a first answer.
    expect((await get(owner.cookieHeader(), '/api/2026-07/ping', flood.signal)).status).toBe(200);
    const refused: Sent[] = [];
    for (let i = 0; i < 140; i++) {
      const path = `/api/2026-07/listings.json?limit=${(i % 250) + 1}`;
      get(viewer.cookieHeader(), path, flood.signal).then(
        (sent) => (sent.status === 429 ? refused.push(sent) : undefined),
        () => undefined,
      );
    }
    // The flood has reached the governor: waiting there, or refused.
    await vi.waitFor(
      () =>
        expect(refused.length + app.hub.governor.snapshot().waiting).toBeGreaterThanOrEqual(120),
      { timeout: 10_000, interval: 50 },
    );

    const started = Date.now();
    const mine = await get(
      owner.cookieHeader(),
      '/api/2026-07/orders.json',
      AbortSignal.timeout(120_000),
    );
    const ownerWait = Date.now() - started;
    expect(mine.status).toBe(200);
    console.info(`owner's wait behind the viewer's flood: ${ownerWait} ms`);
    expect(ownerWait).toBeLessThan(3000);

    // Past the viewer's bound its calls were refused at once, each saying when to try again.
    expect(refused.length).toBeGreaterThanOrEqual(60);
    for (const sent of refused) {
      expect(sent).toMatchObject({ status: 429, code: 'too_many_waiting' });
      expect(Number(sent.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    expect(app.hub.governor.snapshot().waiting).toBeLessThanOrEqual(64);
  }, 150_000);
});
