import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { Browser, usersDb } from './auth-http';
import { AccountsStore } from '../../src/server/auth/accounts-store';
import { SessionBook } from '../../src/server/auth/accounts-store';
import { sessionCookieName } from '../../src/server/auth/auth-gate';
import { MAX_STREAMS_PER_SESSION } from '../../src/server/hub/server-hub';
import type { HubLogEntry, HubWebhookEvent } from '../../src/client/hub-messages';
import { raw as rawHttp, type RawAnswer } from '../support/raw-http';
import { readEventStream, type SseReader } from '../support/sse-reader';

/**
 * The findings of issue 33 on the webhook receiver, attacked over HTTP against the real app
 * server: a Host without its port, a body nested thousands deep, a failed apply, strangers'
 * posts, and captured bytes replayed under a new id. Each failed on 08afbe3.
 */
const SECRET = 'svc_whsec_TheSigningSecretOfThisEndpoint0001';
const PUBLIC_NAME = 'cards.example.com';
let ledgerPath: string;
let usersPath: string;
const ANN_PASSWORD = 'ann-password-1234';
let app: RunningAppServer;
let stream: SseReader;

const start = () =>
  startAppServer(
    {
      // No API call is made here: the upstream is never reached.
      upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_live_unused' },
      port: 0,
      allowedHosts: [PUBLIC_NAME],
      hub: { secrets: [SECRET], ledgerPath },
      // A public name makes the server exposed: it starts only with an account.
      auth: { usersDb: usersPath },
    },
    async () => ({
      development: false,
      register: async () => {},
      pageHtml: async () => '<!doctype html><title>t</title>',
    }),
  );

function sign(raw: string, t = Math.floor(Date.now() / 1000), secret = SECRET): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;
}

let counter = 0;
const freshId = () => `evt_sec${Date.now()}${++counter}`;
const product = (id: string) =>
  JSON.stringify({ id: `lst_${id}`, title: `Card ${id}`, status: 'active', price: '12.00' });

/** A delivery over raw HTTP, so the test sets `Host` as a reverse proxy would. */
function post(
  raw: string,
  headers: Record<string, string>,
  options: { host?: string; url?: string } = {},
): Promise<RawAnswer> {
  const url = options.url ?? app.url;
  return rawHttp(url, '/hub/webhooks', {
    method: 'POST',
    headers: {
      host: options.host ?? new URL(url).host,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(raw)),
      ...headers,
    },
    body: raw,
    whole: true,
  });
}

const headersFor = (id: string, signature: string, topic = 'products/update') => ({
  'x-service-webhook-id': id,
  'x-service-webhook-topic': topic,
  'x-service-webhook-signature': signature,
  'x-service-webhook-attempt': '1',
});

/** The owner's session on the current server (the server is exposed: tabs sign in). */
const sessions = new WeakMap<RunningAppServer, Record<string, string>>();
async function signedIn(): Promise<Record<string, string>> {
  const known = sessions.get(app);
  if (known) return known;
  const ann = new Browser(app.url, new URL(app.url).host);
  expect((await ann.signIn('ann', ANN_PASSWORD)).status).toBe(303);
  const headers = { cookie: ann.cookieHeader() };
  sessions.set(app, headers);
  return headers;
}

const openTab = async () => readEventStream(`${app.url}/hub/events`, await signedIn());

const webhooksOn = (s: SseReader) =>
  s.messages.filter((m) => m.event === 'webhook').map((m) => m.data as HubWebhookEvent);
const hubLog = async () =>
  (await (await fetch(`${app.url}/hub/log`, { headers: await signedIn() })).json()) as {
    entries: HubLogEntry[];
    status: { rejectedDeliveries?: Record<string, number> };
  };

/** A genuine delivery; resolves once it is on the stream (nothing sent before it can still come). */
async function sentinel(): Promise<string> {
  const id = freshId();
  const raw = product(id);
  expect((await post(raw, headersFor(id, sign(raw)))).status).toBe(200);
  await stream.waitFor(() => webhooksOn(stream).some((e) => e.eventId === id));
  return id;
}

beforeAll(async () => {
  ledgerPath = join(mkdtempSync(join(tmpdir(), 'slabdesk-sec-hub-')), 'hub.db');
  usersPath = await usersDb([{ name: 'ann', role: 'owner', password: ANN_PASSWORD }]);
  app = await start();
  stream = await openTab();
  await stream.waitFor((m) => m.some((x) => x.event === 'status'));
});

afterAll(async () => {
  stream?.close();
  await app?.close();
});

describe('a public host name behind a reverse proxy', () => {
  it('takes deliveries whose Host carries no port (nginx `Host $host`, Caddy)', async () => {
    const id = freshId();
    const raw = product(id);
    const answer = await post(raw, headersFor(id, sign(raw)), { host: PUBLIC_NAME });
    expect(answer.status).toBe(200);
    await stream.waitFor(() => webhooksOn(stream).some((e) => e.eventId === id));
  });

  it('and with the port, but not another name', async () => {
    const id = freshId();
    const raw = product(id);
    const withPort = await post(raw, headersFor(id, sign(raw)), {
      host: `${PUBLIC_NAME}:${app.port}`,
    });
    expect(withPort.status).toBe(200);
    const other = await post(raw, headersFor(freshId(), sign(raw)), { host: 'evil.example' });
    expect(other.status).toBe(421);
  });
});

describe('one signed delivery nested 6,000 deep', () => {
  it('is refused before it is claimed, the server keeps serving, and the retry is applied', async () => {
    const id = freshId();
    const deep = `${'['.repeat(6000)}${']'.repeat(6000)}`; // 12 KB
    const answer = await post(deep, headersFor(id, sign(deep)));
    expect(answer.status).toBe(422);
    expect(JSON.parse(answer.body)).toEqual({ error: 'too_deep' });
    // Still serving, the tab still connected.
    const log = await hubLog();
    expect(log.entries.find((e) => e.eventId === id)).toMatchObject({
      outcome: 'rejected',
      reason: 'too_deep',
    });
    expect(log.status.rejectedDeliveries?.too_deep).toBeGreaterThanOrEqual(1);
    // The marketplace's retry of the same event (a good body this time) is not a "duplicate".
    const raw = product(id);
    const retry = await post(raw, headersFor(id, sign(raw)));
    expect(retry.status).toBe(200);
    expect(JSON.parse(retry.body)).toEqual({ ok: true });
    await stream.waitFor(() => webhooksOn(stream).some((e) => e.eventId === id));
  });

  it('a body as deep as a resource can be is applied; one level past the bound is not', async () => {
    const nest = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
    const okId = freshId();
    const ok = nest(64);
    expect((await post(ok, headersFor(okId, sign(ok)))).status).toBe(200);
    const tooId = freshId();
    const too = nest(65);
    expect((await post(too, headersFor(tooId, sign(too)))).status).toBe(422);
  });
});

describe('a delivery that cannot be applied', () => {
  it('is answered 500 and left unclaimed, so the retry applies it', async () => {
    const id = freshId();
    const raw = product(id);
    const events = app.hub;
    const publish = events.publishWebhook.bind(events);
    events.publishWebhook = () => {
      throw new Error('the tabs could not be told');
    };
    let failed: RawAnswer;
    try {
      failed = await post(raw, headersFor(id, sign(raw)));
    } finally {
      events.publishWebhook = publish;
    }
    expect(failed.status).toBe(500);
    const retry = await post(raw, headersFor(id, sign(raw)));
    expect(retry.status).toBe(200);
    expect(JSON.parse(retry.body)).toEqual({ ok: true });
    await stream.waitFor(() => webhooksOn(stream).some((e) => e.eventId === id));
    expect(webhooksOn(stream).filter((e) => e.eventId === id)).toHaveLength(1);
  });
});

describe("strangers' posts", () => {
  it('are counted, never logged under the topic and id they claim, never pushed to a tab', async () => {
    const genuine = await sentinel();
    const before = (await hubLog()).status.rejectedDeliveries ?? {};
    const strangers = Array.from({ length: 250 }, (_, i) => `evt_stranger${Date.now()}_${i}`);
    for (const id of strangers) {
      const raw = JSON.stringify({ id: 'lst_x', title: 'Not yours', status: 'archived' });
      const unsigned = await post(raw, {
        'x-service-webhook-id': id,
        'x-service-webhook-topic': 'products/delete',
      });
      expect(unsigned.status).toBe(401);
    }
    const wrong = await post('{}', headersFor(freshId(), sign('{}', undefined, 'svc_whsec_x')));
    expect(wrong.status).toBe(401);
    await sentinel();
    const { entries, status } = await hubLog();
    expect(entries.filter((e) => strangers.includes(e.eventId ?? ''))).toEqual([]);
    expect(entries.filter((e) => e.outcome === 'rejected' && !e.eventId)).toEqual([]);
    // The genuine entry is still there: 251 refused posts pushed nothing out.
    expect(entries.some((e) => e.eventId === genuine)).toBe(true);
    expect(webhooksOn(stream).filter((e) => strangers.includes(e.eventId))).toEqual([]);
    expect(stream.messages.filter((m) => m.event === 'log').map((m) => m.data)).not.toContainEqual(
      expect.objectContaining({ topic: 'products/delete' }),
    );
    expect(status.rejectedDeliveries?.missing_signature).toBe(
      (before.missing_signature ?? 0) + 250,
    );
    expect(status.rejectedDeliveries?.bad_signature).toBe((before.bad_signature ?? 0) + 1);
  });
});

describe('a captured delivery', () => {
  it('replayed under a new id (and another topic) is a duplicate, even after a restart', async () => {
    const id = freshId();
    const raw = product(id);
    const signature = sign(raw);
    expect((await post(raw, headersFor(id, signature))).status).toBe(200);
    const replay = await post(raw, headersFor(freshId(), signature, 'products/delete'));
    expect(replay.status).toBe(200);
    expect(JSON.parse(replay.body)).toEqual({ ok: true, duplicate: true });

    // The ledger is on disk: a restarted server knows the bytes too.
    stream.close();
    await app.close();
    app = await start();
    stream = await openTab();
    await stream.waitFor((m) => m.some((x) => x.event === 'status'));
    const again = await post(raw, headersFor(freshId(), signature, 'products/delete'));
    expect(JSON.parse(again.body)).toEqual({ ok: true, duplicate: true });
    await sentinel();
    expect(webhooksOn(stream).filter((e) => e.topic === 'products/delete')).toEqual([]);
  });
});

/** The cap on event streams per server (`MAX_STREAM_CLIENTS`). */
const MAX_STREAMS = 200;

describe('event streams', () => {
  it('are capped per server: past the cap a tab is told to come back later', async () => {
    const open: SseReader[] = [];
    // A session's own share is smaller than the cap: the streams come from sessions of their own,
    // opened in the users file directly (25 full-cost sign-ins would time the test, not the cap).
    const book = new SessionBook(new AccountsStore(usersPath), {
      idleMinutes: 60,
      maxHours: 1,
      now: Date.now,
    });
    const freshSession = async () => {
      const { id } = book.open('ann', { address: '127.0.0.1', userAgent: 'test' });
      return { cookie: `${sessionCookieName(false)}=${id}` };
    };
    try {
      // The test's own stream is one of them, in the first session.
      let headers = await signedIn();
      for (let i = 1; i < MAX_STREAMS; i++) {
        if (i % MAX_STREAMS_PER_SESSION === 0) headers = await freshSession();
        open.push(await readEventStream(`${app.url}/hub/events`, headers));
      }
      const over = await fetch(`${app.url}/hub/events`, { headers: await freshSession() });
      expect(over.status).toBe(503);
      await over.body?.cancel();
    } finally {
      for (const reader of open) reader.close();
    }
  }, 60_000);
});
