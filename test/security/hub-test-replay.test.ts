import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import type { HubLogEntry, HubWebhookEvent } from '../../src/client/hub-messages';
import { raw as rawHttp, type RawAnswer } from '../support/raw-http';
import { readEventStream, type SseReader } from '../support/sse-reader';

/**
 * Issue 41's finding on test deliveries: the signature covers the body only, so a captured
 * test-button delivery replayed under a new id without `X-Service-Webhook-Test` carried a valid
 * signature and was applied as a real sale. Failed on d7213af.
 */
const SECRET = 'svc_whsec_TheTestReplaySuitesSecret00000001';
let ledgerPath: string;
let app: RunningAppServer;
let stream: SseReader;

const start = () =>
  startAppServer(
    {
      upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_live_unused' },
      port: 0,
      hub: { secrets: [SECRET], ledgerPath },
    },
    async () => ({
      development: false,
      register: async () => {},
      pageHtml: async () => '<!doctype html><title>t</title>',
    }),
  );

const sign = (raw: string, t = Math.floor(Date.now() / 1000)) =>
  `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.${raw}`).digest('hex')}`;

let counter = 0;
const freshId = () => `evt_replay${Date.now()}${++counter}`;

function post(raw: string, headers: Record<string, string>): Promise<RawAnswer> {
  return rawHttp(app.url, '/hub/webhooks', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: raw,
    whole: true,
  });
}

const headersFor = (id: string, signature: string, extra: Record<string, string> = {}) => ({
  'x-service-webhook-id': id,
  'x-service-webhook-topic': 'orders/create',
  'x-service-webhook-signature': signature,
  'x-service-webhook-attempt': '1',
  ...extra,
});

const webhooks = () =>
  stream.messages.filter((m) => m.event === 'webhook').map((m) => m.data as HubWebhookEvent);
const logOf = async () =>
  ((await (await fetch(`${app.url}/hub/log`)).json()) as { entries: HubLogEntry[] }).entries;

/** A real delivery of its own; once it is on the stream, nothing sent before it can still come. */
async function sentinel(): Promise<void> {
  const id = freshId();
  const raw = JSON.stringify({ id: 'ord_sentinel', note: id });
  expect((await post(raw, headersFor(id, sign(raw)))).status).toBe(200);
  await stream.waitFor(() => webhooks().some((e) => e.eventId === id));
}

beforeAll(async () => {
  ledgerPath = join(mkdtempSync(join(tmpdir(), 'slabdesk-replay-')), 'hub.db');
  app = await start();
  stream = await readEventStream(`${app.url}/hub/events`);
  await stream.waitFor((m) => m.some((x) => x.event === 'status'));
});

afterAll(async () => {
  stream?.close();
  await app?.close();
});

describe('a test-button delivery', () => {
  it('replayed under a new id without its test header is a duplicate, never a real sale, even after a restart', async () => {
    // The dashboard's test button: a sample order, signed like any delivery.
    const sample = JSON.stringify({ id: 'ord_sample', total_price: '999.00', line_items: [] });
    const signature = sign(sample);
    const testId = freshId();
    const test = await post(
      sample,
      headersFor(testId, signature, { 'x-service-webhook-test': 'true' }),
    );
    expect(test.status).toBe(200);
    await stream.waitFor(() => webhooks().some((e) => e.eventId === testId));
    expect(webhooks().find((e) => e.eventId === testId)?.test).toBe(true);

    // Captured and replayed: same bytes and signature, a new id, no test header.
    const replayId = freshId();
    const replay = await post(sample, headersFor(replayId, signature));
    expect(replay.status).toBe(200);
    expect(JSON.parse(replay.body)).toEqual({ ok: true, duplicate: true });
    const entry = (await logOf()).find((e) => e.eventId === replayId);
    expect(entry).toMatchObject({ outcome: 'duplicate' });

    // The ledger is on disk: a restarted server still knows the sample.
    stream.close();
    await app.close();
    app = await start();
    stream = await readEventStream(`${app.url}/hub/events`);
    await stream.waitFor((m) => m.some((x) => x.event === 'status'));
    const again = await post(sample, headersFor(freshId(), signature));
    expect(JSON.parse(again.body)).toEqual({ ok: true, duplicate: true });

    await sentinel();
    const real = webhooks().filter((e) => !e.test && JSON.stringify(e.payload) === sample);
    expect(real).toEqual([]);
  });

  it('pressed again is shown again as a test, and a real sale after it is applied', async () => {
    const sample = JSON.stringify({ id: 'ord_sample2', total_price: '5.00' });
    for (const id of [freshId(), freshId()]) {
      const answer = await post(
        sample,
        headersFor(id, sign(sample), { 'x-service-webhook-test': 'true' }),
      );
      expect(answer.status).toBe(200);
      await stream.waitFor(() => webhooks().some((e) => e.eventId === id && e.test));
    }
    const saleId = freshId();
    const sale = JSON.stringify({ id: 'ord_real', total_price: '5.00' });
    expect((await post(sale, headersFor(saleId, sign(sale)))).status).toBe(200);
    await stream.waitFor(() => webhooks().some((e) => e.eventId === saleId && !e.test));
  });
});
