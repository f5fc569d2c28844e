import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import type { HubWebhookEvent } from '../../src/client/hub-messages';
import { readSettings, serverOptionsOf } from '../../src/server/config/settings';
import { raw as rawHttp, type RawOptions } from '../support/raw-http';
import { readEventStream, type SseReader } from '../support/sse-reader';

/**
 * The webhook door (`SLABDESK_WEBHOOK_PORT`): a listener of its own that takes deliveries and
 * answers a health check, and nothing else, whatever Host it is reached by.
 */
const SECRET = 'svc_whsec_TheDoorsSigningSecret000000000001';
let app: RunningAppServer;
let door: string;
let stream: SseReader;

function sign(raw: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.${raw}`).digest('hex')}`;
}

let counter = 0;
const freshId = () => `evt_door${Date.now()}${++counter}`;

/** Raw HTTP (the test sets `Host`), a body sent whole with its length as a sender does. */
const send = (base: string, path: string, options: RawOptions = {}) =>
  rawHttp(base, path, { ...options, whole: true });

function delivery(id: string, host?: string) {
  const raw = JSON.stringify({ id: `lst_${id}`, title: `Door ${id}`, status: 'active' });
  return {
    method: 'POST',
    body: raw,
    headers: {
      ...(host ? { host } : {}),
      'content-type': 'application/json',
      'x-service-webhook-id': id,
      'x-service-webhook-topic': 'products/update',
      'x-service-webhook-signature': sign(raw),
    },
  };
}

beforeAll(async () => {
  app = await startAppServer(
    {
      upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_live_unused' },
      port: 0,
      webhookPort: 0,
      hub: { secrets: [SECRET] },
    },
    async () => ({
      development: false,
      register: async () => {},
      pageHtml: async () => '<!doctype html><title>t</title>',
    }),
  );
  door = app.webhookDoor!.url;
  stream = await readEventStream(`${app.url}/hub/events`);
  await stream.waitFor((m) => m.some((x) => x.event === 'status'));
});

afterAll(async () => {
  stream?.close();
  await app?.close();
});

const webhooks = () =>
  stream.messages.filter((m) => m.event === 'webhook').map((m) => m.data as HubWebhookEvent);

describe('the webhook door', () => {
  it('is read from SLABDESK_WEBHOOK_PORT and SLABDESK_WEBHOOK_HOST', () => {
    const door = (env: NodeJS.ProcessEnv) => {
      const { webhookPort, webhookHost } = serverOptionsOf(readSettings(env));
      return { webhookPort, webhookHost };
    };
    expect(door({})).toEqual({});
    expect(door({ SLABDESK_WEBHOOK_PORT: '8788' })).toEqual({ webhookPort: 8788 });
    expect(door({ SLABDESK_WEBHOOK_PORT: '8788', SLABDESK_WEBHOOK_HOST: '0.0.0.0' })).toEqual({
      webhookPort: 8788,
      webhookHost: '0.0.0.0',
    });
    expect(() => door({ SLABDESK_WEBHOOK_PORT: 'eighty' })).toThrow(/SLABDESK_WEBHOOK_PORT/);
  });

  it('listens on a port of its own and takes a signed delivery, whatever the Host', async () => {
    expect(app.webhookDoor!.port).not.toBe(app.port);
    const id = freshId();
    const answer = await send(door, '/hub/webhooks', delivery(id, 'tunnel.example.net'));
    expect(answer.status).toBe(200);
    await stream.waitFor(() => webhooks().some((e) => e.eventId === id));
  });

  it('refuses an unsigned post as the main port does', async () => {
    const answer = await send(door, '/hub/webhooks', {
      method: 'POST',
      body: '{}',
      headers: { 'x-service-webhook-id': freshId(), 'x-service-webhook-topic': 'products/update' },
    });
    expect(answer.status).toBe(401);
  });

  it('answers its health check, and 404 for everything else: the page, the API, the stream', async () => {
    expect(await send(door, '/healthz')).toMatchObject({ status: 200 });
    for (const path of [
      '/',
      '/index.html',
      '/api/2026-07/listings.json',
      '/hub/events',
      '/hub/log',
    ]) {
      expect((await send(door, path)).status, path).toBe(404);
    }
    expect((await send(door, '/hub/webhooks')).status).toBe(405);
  });

  it('limits how long a request may take to arrive', () => {
    const server = app.webhookDoor!.server;
    expect(server.headersTimeout).toBeLessThanOrEqual(10_000);
    expect(server.requestTimeout).toBeLessThanOrEqual(15_000);
    expect(server.timeout).toBeGreaterThan(0);
    expect(app.server.requestTimeout).toBeLessThanOrEqual(60_000);
    expect(app.server.headersTimeout).toBeLessThanOrEqual(20_000);
  });

  it('leaves the main port’s path in place, and closes with the server', async () => {
    const id = freshId();
    expect((await send(app.url, '/hub/webhooks', delivery(id))).status).toBe(200);
    await stream.waitFor(() => webhooks().some((e) => e.eventId === id));
    stream.close();
    await app.close();
    await expect(send(door, '/healthz')).rejects.toThrow();
  });
});
