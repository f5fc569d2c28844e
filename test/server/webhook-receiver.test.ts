import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_SELLER_ID, startSandbox, type RunningSandbox } from '../../src/sandbox';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import type { HubLogEntry, HubWebhookEvent } from '../../src/client/hub-messages';
import { readEventStream, type SseReader } from '../support/sse-reader';

/**
 * The server's webhook receiver against the real sandbox: the sandbox registers the server,
 * sells, retries; the test forges, replays and alters deliveries over HTTP and watches the
 * server's own event stream and log.
 */
const PREVIOUS_SECRET = 'svc_whsec_PreviousSecretOfTheRotation000001';
let sandbox: RunningSandbox;
let app: RunningAppServer;
let stream: SseReader;
let ledgerPath: string;

async function control<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

function startApp(port = 0) {
  return startAppServer(
    {
      upstream: { baseUrl: sandbox.url, apiKey: 'svc_live_unused' },
      port,
      strictPort: port !== 0,
      hub: {
        ledgerPath,
        secrets: [PREVIOUS_SECRET],
        registerWith: { sandboxUrl: sandbox.url, sellerId: DEMO_SELLER_ID },
      },
    },
    async () => ({
      development: false,
      register: async () => {},
      pageHtml: async () => '<!doctype html><title>t</title>',
    }),
  );
}

const webhooksOn = (s: SseReader) =>
  s.messages.filter((m) => m.event === 'webhook').map((m) => m.data as HubWebhookEvent);
const logOf = async (): Promise<HubLogEntry[]> =>
  ((await (await fetch(`${app.url}/hub/log`)).json()) as { entries: HubLogEntry[] }).entries;

function sign(secret: string, raw: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;
}

async function deliver(raw: string, headers: Record<string, string>): Promise<Response> {
  return fetch(`${app.url}/hub/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: raw,
  });
}

function headersFor(id: string, signature: string, topic = 'products/update') {
  return {
    'x-service-webhook-id': id,
    'x-service-webhook-topic': topic,
    'x-service-webhook-signature': signature,
    'x-service-webhook-attempt': '1',
  };
}

let secret: string;
let counter = 0;
const freshId = () => `evt_test${Date.now()}${++counter}`;

/** A genuine delivery with a new id; resolves once it is on the stream (nothing before it can still come). */
async function sentinel(): Promise<void> {
  const id = freshId();
  // Its own bytes: the receiver takes the same signed bytes under another id for a replay.
  const raw = JSON.stringify({ id: 'lst_sentinel', title: `Sentinel ${id}`, status: 'active' });
  expect((await deliver(raw, headersFor(id, sign(secret, raw)))).status).toBe(200);
  await stream.waitFor(() => webhooksOn(stream).some((e) => e.eventId === id));
}

beforeAll(async () => {
  ledgerPath = join(mkdtempSync(join(tmpdir(), 'slabdesk-hub-')), 'hub.db');
  sandbox = await startSandbox({ port: 0, db: ':memory:', seed: 'demo', demoListings: 30 });
  app = await startApp();
  const { webhooks } = await control<{ webhooks: { url: string; secret: string }[] }>(
    'GET',
    `/webhooks?seller_id=${DEMO_SELLER_ID}`,
  );
  const mine = webhooks.find((w) => w.url === `${app.url}/hub/webhooks`);
  expect(mine, 'the server registered itself with the sandbox').toBeDefined();
  secret = mine!.secret;
  stream = await readEventStream(`${app.url}/hub/events`);
  await stream.waitFor((m) => m.some((x) => x.event === 'status'));
});

afterAll(async () => {
  stream?.close();
  await app?.close();
  await sandbox?.close();
});

async function activeListingId(): Promise<string> {
  const { products: listings } = await control<{ products: { id: string; status: string }[] }>(
    'GET',
    `/listings?seller_id=${DEMO_SELLER_ID}`,
  );
  const sold = new Set(
    webhooksOn(stream)
      .filter((e) => e.topic === 'products/update')
      .map((e) => (e.payload as { id: string }).id),
  );
  const listing = listings.find((l) => l.status === 'active' && !sold.has(l.id));
  if (!listing) throw new Error('no active listing left');
  return listing.id;
}

describe('the webhook receiver', () => {
  it('takes a sale from the sandbox and pushes the listing and the order to the stream', async () => {
    const status = stream.messages.find((m) => m.event === 'status')!.data as { webhooks: string };
    expect(status.webhooks).toBe('registered');
    const id = await activeListingId();
    const { order } = await control<{ order: { id: string } }>('POST', `/listings/${id}/sell`, {});
    await stream.waitFor(() => {
      const events = webhooksOn(stream);
      return (
        events.some(
          (e) => e.topic === 'products/update' && (e.payload as { id: string }).id === id,
        ) &&
        events.some(
          (e) => e.topic === 'orders/create' && (e.payload as { id: string }).id === order.id,
        )
      );
    });
    const product = webhooksOn(stream).find(
      (e) => e.topic === 'products/update' && (e.payload as { id: string }).id === id,
    )!;
    expect(product.payload).toMatchObject({
      id,
      status: 'archived',
      svc_unavailable_reason: 'sold',
    });
  });

  it('refuses a forged signature, an old timestamp and a body changed by one byte, and applies none', async () => {
    const before = app.hub.ledger.count();
    const raw = JSON.stringify({ id: 'lst_forged', title: 'Forged', status: 'archived' });
    const forgedId = freshId();
    const forged = await deliver(raw, headersFor(forgedId, sign('svc_whsec_NotTheSecret', raw)));
    expect(forged.status).toBe(401);

    const oldId = freshId();
    const old = await deliver(
      raw,
      headersFor(oldId, sign(secret, raw, Math.floor(Date.now() / 1000) - 3601)),
    );
    expect(old.status).toBe(401);

    const changedId = freshId();
    const signature = sign(secret, raw);
    const changed = Buffer.from(raw);
    changed[changed.indexOf('F')] = 'G'.charCodeAt(0); // one byte: "Forged" → "Gorged"
    const altered = await deliver(changed.toString(), headersFor(changedId, signature));
    expect(altered.status).toBe(401);
    // The same bytes with the signature they were signed with are accepted: only the byte differs.
    const intactId = freshId();
    expect((await deliver(raw, headersFor(intactId, signature))).status).toBe(200);

    await sentinel();
    const refused = [forgedId, oldId, changedId];
    expect(webhooksOn(stream).filter((e) => refused.includes(e.eventId))).toEqual([]);
    expect(app.hub.ledger.count()).toBe(before + 2); // the intact one and the sentinel
    // Refused before verification: counted by reason, never logged under the ids they claimed.
    const { entries, status } = (await (await fetch(`${app.url}/hub/log`)).json()) as {
      entries: HubLogEntry[];
      status: { rejectedDeliveries: Record<string, number> };
    };
    expect(entries.filter((e) => refused.includes(e.eventId ?? ''))).toEqual([]);
    expect(status.rejectedDeliveries).toMatchObject({ bad_signature: 2, stale_timestamp: 1 });
  });

  it('accepts the previous secret during a rotation', async () => {
    const id = freshId();
    const raw = JSON.stringify({ id: 'lst_rotated', title: 'Rotated', status: 'active' });
    expect((await deliver(raw, headersFor(id, sign(PREVIOUS_SECRET, raw)))).status).toBe(200);
    await stream.waitFor(() => webhooksOn(stream).some((e) => e.eventId === id));
  });

  it('keeps a small verified body in the log, so the events view names the card after a reload', async () => {
    const small = freshId();
    const raw = JSON.stringify({ id: 'lst_logged', title: '1986 Fleer Jordan', status: 'active' });
    expect((await deliver(raw, headersFor(small, sign(secret, raw)))).status).toBe(200);
    const big = freshId();
    const rawBig = JSON.stringify({ id: 'lst_big', title: 'x'.repeat(20_000), status: 'active' });
    expect((await deliver(rawBig, headersFor(big, sign(secret, rawBig)))).status).toBe(200);
    const entries = await logOf();
    expect(entries.find((e) => e.eventId === small)?.payload).toEqual(JSON.parse(raw));
    // A large body is pushed to the open tabs but not kept: the log stays small.
    const kept = entries.find((e) => e.eventId === big);
    expect(kept?.outcome).toBe('applied');
    expect(kept?.payload).toBeUndefined();
  });

  it('answers a replayed event id 200 and does not apply it again', async () => {
    const id = freshId();
    const raw = JSON.stringify({ id: 'lst_replayed', title: 'Replayed', status: 'active' });
    expect((await deliver(raw, headersFor(id, sign(secret, raw)))).status).toBe(200);
    const count = app.hub.ledger.count();
    const replay = await deliver(raw, headersFor(id, sign(secret, raw)));
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ ok: true, duplicate: true });
    await sentinel();
    expect(webhooksOn(stream).filter((e) => e.eventId === id)).toHaveLength(1);
    expect(app.hub.ledger.count()).toBe(count + 1); // the sentinel only
    expect((await logOf()).filter((e) => e.eventId === id).map((e) => e.outcome)).toEqual([
      'applied',
      'duplicate',
    ]);
  });

  it('loses no delivery made while the server restarts, and applies it once', async () => {
    const port = app.port;
    const webhookId = (
      await control<{ webhooks: { id: string; url: string }[] }>(
        'GET',
        `/webhooks?seller_id=${DEMO_SELLER_ID}`,
      )
    ).webhooks.find((w) => w.url === `${app.url}/hub/webhooks`)!.id;
    stream.close();
    await app.close();

    const id = await activeListingId();
    await control('POST', `/listings/${id}/sell`, {});
    // The first attempt finds nobody listening.
    type Delivery = { event_id: string; topic: string; status_code: number | null };
    const failed = await vi.waitFor(
      async () => {
        const { deliveries } = await control<{ deliveries: Delivery[] }>(
          'GET',
          `/webhooks/${webhookId}/deliveries`,
        );
        const found = deliveries.find(
          (d) => d.topic === 'products/update' && d.status_code !== 200,
        );
        if (!found) throw new Error('the sandbox has not tried while the server was down');
        return found;
      },
      { timeout: 10_000, interval: 20 },
    );
    const eventId = failed.event_id;

    app = await startApp(port);
    stream = await readEventStream(`${app.url}/hub/events`);
    await stream.waitFor((m) => m.some((x) => x.event === 'status'));
    // The sandbox's retry is due a minute later on its clock.
    await control('POST', '/clock', { advance_seconds: 120 });
    await stream.waitFor(() => webhooksOn(stream).some((e) => e.eventId === eventId));

    // Delivered again (a redelivery from the dashboard log): acknowledged, not applied twice.
    await control('POST', `/events/${eventId}/redeliver`, {});
    await expect
      .poll(
        async () => (await logOf()).some((e) => e.eventId === eventId && e.outcome === 'duplicate'),
        { timeout: 10_000, interval: 20 },
      )
      .toBe(true);
    await sentinel();
    expect(webhooksOn(stream).filter((e) => e.eventId === eventId)).toHaveLength(1);
    expect((await logOf()).filter((e) => e.eventId === eventId).map((e) => e.outcome)).toEqual([
      'applied',
      'duplicate',
    ]);
  });
});
