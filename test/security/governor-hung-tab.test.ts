import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { Browser, fakeDist, usersDb } from './auth-http';

/**
 * "10 hung upstream calls of one person block that person's other tabs for 54 s (others' calls
 * pass in 235 ms)": an upstream whose `/hang` paths never answer, a signed-in person whose one tab
 * (or a script with the same cookie) sends 10 calls there, then opens a page in another tab. The
 * other tab's call is answered at once, well inside the deadline; each hung call is given up on
 * its own deadline (its wait for a turn bounded by it, then its time upstream), 504
 * `upstream_timeout`, not after the calls ahead of it one deadline after another.
 */
const DEADLINE_MS = 3000;
const PASSWORD = 'a long password';
let upstream: FakeUpstream;
let app: RunningAppServer;
let person: Browser;
const hung = new Set<ServerResponse>();

beforeAll(async () => {
  upstream = await startFakeUpstream((request, response) => {
    if (request.url?.includes('/hang')) {
      hung.add(response);
      response.on('close', () => hung.delete(response));
      return;
    }
    response.writeHead(200, {
      'content-type': 'application/json',
      'x-service-api-call-limit': '1/40',
    });
    response.end(JSON.stringify({ ok: true }));
  });
  const db = await usersDb([{ name: 'olive', role: 'owner', password: PASSWORD }]);
  app = await startAppServer(
    {
      upstream: { baseUrl: upstream.url, apiKey: 'svc_live_HungTabKey0000000000000001' },
      port: 0,
      auth: { usersDb: db, requireSignIn: true },
      proxy: { upstreamLimits: { headersMs: DEADLINE_MS, silenceMs: DEADLINE_MS } },
    },
    async () => distPages(fakeDist()),
  );
  person = new Browser(app.url, `127.0.0.1:${app.port}`);
  expect((await person.signIn('olive', PASSWORD)).status).toBe(303);
  // A dashboard in use: the governor has learnt the bucket's level from an answer.
  expect((await get('/api/2026-07/ping', 'warm-up')).status).toBe(200);
});

afterAll(async () => {
  await app?.close();
  upstream?.server.closeAllConnections();
  await upstream?.close();
});

interface Answer {
  status: number;
  code: string | undefined;
  /** Milliseconds from `since` to the whole answer. */
  after: number;
}

/** One GET of the signed-in person, from `tab` (undefined: a script that names no tab). */
async function get(path: string, tab: string | undefined, since = Date.now()): Promise<Answer> {
  const headers: Record<string, string> = { cookie: person.cookieHeader() };
  if (tab !== undefined) headers['x-slabdesk-tab'] = tab;
  const answer = await fetch(`${app.url}${path}`, {
    headers,
    signal: AbortSignal.timeout(8 * DEADLINE_MS),
  });
  const body = (await answer.json()) as { svc_error?: { code?: string } };
  return { status: answer.status, code: body.svc_error?.code, after: Date.now() - since };
}

/** Ten calls to the hung path from `tab`, once every one is in flight upstream or waiting. */
async function tenHungCalls(tab: string | undefined): Promise<Promise<Answer>[]> {
  const started = Date.now();
  const calls = Array.from({ length: 10 }, () =>
    get('/api/2026-07/listings/hang.json', tab, started),
  );
  await vi.waitFor(
    () => {
      expect(hung.size).toBeGreaterThan(0);
      expect(hung.size + app.hub.governor.snapshot().waiting).toBe(10);
    },
    { timeout: DEADLINE_MS / 2, interval: 10 },
  );
  return calls;
}

/** The other tab's call is answered well inside the deadline; each hung call on its own. */
async function otherTabGoesOn(hungTab: string | undefined): Promise<void> {
  const hanging = await tenHungCalls(hungTab);
  const other = await get('/api/2026-07/orders.json', 'tab-b');
  console.info(`another tab's call beside 10 hung calls: ${other.after} ms`);
  expect(other.status).toBe(200);
  expect(other.after).toBeLessThan(DEADLINE_MS / 3);

  const answers = await Promise.all(hanging);
  for (const answer of answers) {
    expect(answer).toMatchObject({ status: 504, code: 'upstream_timeout' });
    // At most its own deadline waiting for a turn, then its own deadline upstream.
    expect(answer.after).toBeLessThan(2 * DEADLINE_MS + 1000);
  }
  console.info(`the last hung call's answer: ${Math.max(...answers.map((a) => a.after))} ms`);
  await vi.waitFor(
    () => expect(app.hub.governor.snapshot()).toMatchObject({ inFlight: 0, waiting: 0 }),
    { timeout: DEADLINE_MS, interval: 20 },
  );
}

describe("one person's hung calls", () => {
  it("leave that person's other tab its call at once, each ended by its own deadline", async () => {
    await otherTabGoesOn('tab-a');
  }, 30_000);

  it('sent by a script that names no tab, leave the tabs a slot as well', async () => {
    await otherTabGoesOn(undefined);
  }, 30_000);
});
