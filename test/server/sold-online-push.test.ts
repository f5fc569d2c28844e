import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  randomUUID,
  verify,
} from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LIVE_TOKEN, DEMO_SELLER_ID } from '../../src/sandbox';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { readSettings, SettingsError } from '../../src/server/config/settings';
import { PushStore } from '../../src/server/push/push-store';
import { vapidKeysFor } from '../../src/server/push/push-part';
import { distPages } from '../../src/server/dist-pages';
import { Browser, fakeDist, SIGN_IN_HEAVY_MS, usersDb } from '../security/auth-http';
import { emptyPages } from '../support/empty-pages';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { readEventStream } from '../support/sse-reader';

/**
 * Issue 51, point 6: a slab of a show's case sold online reaches the table. The real sandbox sells
 * it (`POST /_sandbox/listings/{id}/sell`), its signed deliveries reach the real hub over HTTP,
 * and the hub pushes to a push service of this test's own (a loopback HTTP server): the push is
 * signed by the hub's VAPID key and its payload, decrypted here with the subscription's private
 * key (RFC 8291, aes128gcm), names the slab. Each open tab hears it on the event stream.
 */

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The server's kept subscription of one endpoint, if any. */
const subscriptionOf = (app: RunningAppServer, endpoint: string) =>
  app.push.store.subscriptions().find((one) => one.endpoint === endpoint);

/** A push service: records each push, answers with the status the test sets. */
interface PushService {
  url: string;
  received: Received[];
  answer: number;
  close(): Promise<void>;
}

async function startPushService(): Promise<PushService> {
  const service: PushService = {
    url: '',
    received: [],
    answer: 201,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      service.received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      response.writeHead(service.answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return service;
}

/** A browser's subscription: its own P-256 pair and auth secret, as `pushManager` would make. */
function newSubscriber(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    json: {
      endpoint,
      expirationTime: null,
      keys: {
        p256dh: ecdh.getPublicKey().toString('base64url'),
        auth: auth.toString('base64url'),
      },
    },
  };
}

/** The push's payload, decrypted as the phone would (RFC 8291 over RFC 8188's aes128gcm). */
function decrypt(body: Buffer, subscriber: ReturnType<typeof newSubscriber>): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const serverPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  expect(idLength).toBe(65);
  expect(ciphertext.length).toBeLessThanOrEqual(recordSize);
  const shared = subscriber.ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([
    Buffer.from('WebPush: info\0'),
    subscriber.ecdh.getPublicKey(),
    serverPublic,
  ]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, subscriber.auth, keyInfo, 32));
  const cek = Buffer.from(
    hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16),
  );
  const nonce = Buffer.from(
    hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12),
  );
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // The last record: the text, then the delimiter 2, then zeros.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end]).toBe(2);
  return padded.subarray(0, end).toString('utf8');
}

/** The VAPID header (`vapid t=<JWT>, k=<public key>`) verified against the hub's public key. */
function verifyVapid(headers: IncomingHttpHeaders, publicKey: string, audience: string) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(headers.authorization ?? '');
  expect(match, `authorization: ${headers.authorization}`).not.toBeNull();
  const [, token, key] = match!;
  expect(key).toBe(publicKey);
  const [head, claims, signature] = token!.split('.');
  const point = Buffer.from(publicKey, 'base64url');
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33, 65).toString('base64url'),
  };
  const valid = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature!, 'base64url'),
  );
  expect(valid).toBe(true);
  const header = JSON.parse(Buffer.from(head!, 'base64url').toString('utf8')) as { alg: string };
  expect(header.alg).toBe('ES256');
  const body = JSON.parse(Buffer.from(claims!, 'base64url').toString('utf8')) as {
    aud: string;
    exp: number;
    sub: string;
  };
  expect(body.aud).toBe(audience);
  expect(body.exp * 1000).toBeGreaterThan(Date.now());
  expect(body.sub).toMatch(/^(mailto:|https:)/);
}

let harness: Harness;
let app: RunningAppServer;
let pushService: PushService;
let active: { id: string; title: string; card: { cert_number: string } }[];

beforeAll(async () => {
  harness = await startHarness({ seed: 'demo', rateLimit: false });
  pushService = await startPushService();
  app = await startAppServer(
    {
      upstream: { baseUrl: harness.url, apiKey: DEMO_LIVE_TOKEN },
      port: 0,
      hub: { registerWith: { sandboxUrl: harness.url, sellerId: DEMO_SELLER_ID } },
      activity: { path: ':memory:' },
      push: { allowLoopbackEndpoints: true },
    },
    emptyPages,
  );
  await app.replica.ready();
  const listed = await harness.control<{
    products: { id: string; status: string; title: string }[];
  }>('GET', `/listings?seller_id=${DEMO_SELLER_ID}`);
  const ids = listed.body.products.filter((p) => p.status === 'active').slice(0, 4);
  active = ids.map((p) => {
    const row = app.replica.store.row('listings', p.id)!.body as {
      title: string;
      card: { cert_number: string };
    };
    return { id: p.id, title: row.title, card: row.card };
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await pushService?.close();
  await harness?.close();
});

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${app.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : undefined) as unknown };
}

/** A show of today with these listings in its case. */
async function showWithCase(listingIds: string[], date = new Date().toISOString().slice(0, 10)) {
  const key = `show-${randomUUID()}`;
  expect((await call('POST', '/hub/shows', { key, name: 'Philly Card Show', date })).status).toBe(
    201,
  );
  expect((await call('PUT', `/hub/shows/${key}/case`, { listingIds })).status).toBe(200);
  return key;
}

/** Both deliveries of a sale applied by the hub (the listing's update and the new order). */
async function saleDelivered(listingId: string) {
  await expect
    .poll(
      () => {
        const row = app.replica.store.row('listings', listingId)?.body;
        return row?.status === 'archived' && row.unavailable_reason === 'sold';
      },
      { timeout: 20_000 },
    )
    .toBe(true);
}

describe('a case slab sold online', () => {
  it('sends one push per sale, signed by the hub and naming the slab; open tabs hear it', async () => {
    const key = await call('GET', '/hub/push/key');
    const publicKey = (key.json as { publicKey: string }).publicKey;
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    const subscriber = newSubscriber(`${pushService.url}/push/phone-1`);
    expect((await call('POST', '/hub/push/subscriptions', subscriber.json)).status).toBe(201);
    const slab = active[0]!;
    await showWithCase([slab.id, active[3]!.id]);

    // An open tab's stream, from before the sale.
    const stream = await readEventStream(`${app.url}/hub/events`);
    await stream.waitFor((messages) => messages.some((m) => m.event === 'status'));

    const sold = await harness.control('POST', `/listings/${slab.id}/sell`, {});
    expect(sold.status).toBe(200);
    await expect.poll(() => pushService.received.length, { timeout: 20_000 }).toBe(1);
    const push = pushService.received[0]!;
    expect(push.path).toBe('/push/phone-1');
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(push.headers.ttl)).toBeGreaterThan(0);
    verifyVapid(push.headers, publicKey, pushService.url);
    const message = JSON.parse(decrypt(push.body, subscriber)) as {
      title: string;
      body: string;
      url: string;
    };
    expect(message.title).toBe('Sold online: pull it from the table');
    expect(message.body).toContain(slab.title);
    expect(message.body).toContain(`cert ${slab.card.cert_number}`);
    expect(message.url).toContain(`/show/cert/${slab.card.cert_number}`);

    // The tab was told at once, with the same slab.
    // Its greeting said nothing was sold; then the sale, told once.
    const toldAlerts = () =>
      stream.messages.filter(
        (m) => m.event === 'sold_online' && (m.data as { alerts: unknown[] }).alerts.length > 0,
      );
    await stream.waitFor(() => toldAlerts().length > 0);
    const told = toldAlerts()[0]!.data as {
      alerts: { listingId: string; title: string; certNumber: string }[];
    };
    expect(told.alerts).toEqual([
      expect.objectContaining({
        listingId: slab.id,
        title: slab.title,
        certNumber: slab.card.cert_number,
      }),
    ]);

    // Once per sale: both deliveries applied, the replica read again, the watch looks again.
    await saleDelivered(slab.id);
    await app.replica.round();
    app.push.watch!.look();
    await app.push.watch!.settled();
    expect(pushService.received).toHaveLength(1);
    expect(toldAlerts()).toHaveLength(1);
    stream.close();

    // A tab that opens later is given it again (the browser hides it once dismissed).
    const later = await readEventStream(`${app.url}/hub/events`);
    await later.waitFor((messages) =>
      messages.some((m) => m.event === 'sold_online' && JSON.stringify(m.data).includes(slab.id)),
    );
    later.close();
  });

  it('a slab not in any current case is not told; a push service’s 410 drops the subscription', async () => {
    const before = pushService.received.length;
    // In the case of a show long past: its slabs went home.
    await showWithCase([active[1]!.id], '2020-01-04');
    await harness.control('POST', `/listings/${active[1]!.id}/sell`, {});
    await saleDelivered(active[1]!.id);
    app.push.watch!.look();
    await app.push.watch!.settled();
    expect(pushService.received).toHaveLength(before);

    // The phone uninstalled the app: its push service answers 410 Gone.
    pushService.answer = 410;
    const endpoint = `${pushService.url}/push/phone-1`;
    expect(subscriptionOf(app, endpoint)).toBeDefined();
    await showWithCase([active[2]!.id]);
    await harness.control('POST', `/listings/${active[2]!.id}/sell`, {});
    await expect.poll(() => pushService.received.length, { timeout: 20_000 }).toBe(before + 1);
    await app.push.watch!.settled();
    expect(subscriptionOf(app, endpoint)).toBeUndefined();
    pushService.answer = 201;
  });

  it('refuses a subscription it could not use, naming the field', async () => {
    const good = newSubscriber('https://push.example.com/send/abc').json;
    const cases: [unknown, string][] = [
      [{ ...good, endpoint: 'http://push.example.com/send/abc' }, 'endpoint'],
      [{ ...good, endpoint: 'https://10.0.0.7/send' }, 'endpoint'],
      [{ ...good, endpoint: 'https://router.local/send' }, 'endpoint'],
      [{ ...good, keys: { ...good.keys, p256dh: 'AAAA' } }, 'keys.p256dh'],
      [{ ...good, keys: { ...good.keys, auth: 'not base64!' } }, 'keys.auth'],
      [{ ...good, extra: 1 }, 'body'],
    ];
    for (const [body, field] of cases) {
      const answer = await call('POST', '/hub/push/subscriptions', body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys((answer.json as { errors: Record<string, string[]> }).errors)).toContain(
        field,
      );
    }
    const tooLong = await call('POST', '/hub/push/subscriptions', {
      ...good,
      endpoint: `https://push.example.com/${'a'.repeat(3000)}`,
    });
    expect(tooLong.status).toBe(422);
    expect((await call('POST', '/hub/push/subscriptions', good)).status).toBe(201);
    expect(
      await call('DELETE', '/hub/push/subscriptions', { endpoint: good.endpoint }),
    ).toMatchObject({ status: 200, json: { unsubscribed: true } });
    expect(subscriptionOf(app, good.endpoint)).toBeUndefined();
  });
});

describe('a session’s end', () => {
  const PASSWORD = 'push-password-1234';
  let signedIn: RunningAppServer;
  let host: string;

  beforeAll(async () => {
    signedIn = await startAppServer(
      {
        upstream: { baseUrl: harness.url, apiKey: DEMO_LIVE_TOKEN },
        port: 0,
        activity: { path: ':memory:' },
        auth: {
          usersDb: await usersDb([
            { name: 'vera', role: 'viewer', password: PASSWORD },
            { name: 'olive', role: 'owner', password: PASSWORD },
          ]),
          requireSignIn: true,
        },
        push: { allowLoopbackEndpoints: true },
      },
      async () => distPages(fakeDist()),
    );
    host = new URL(signedIn.url).host;
  }, SIGN_IN_HEAVY_MS);

  afterAll(async () => {
    await signedIn?.close();
  });

  async function subscribed(name: string, device: string) {
    const browser = new Browser(signedIn.url, host);
    expect((await browser.signIn(name, PASSWORD)).status).toBe(303);
    const endpoint = `${pushService.url}/push/${device}`;
    const answer = await browser.write(
      'POST',
      '/hub/push/subscriptions',
      newSubscriber(endpoint).json,
    );
    expect(answer.status).toBe(201);
    return { browser, endpoint };
  }

  it(
    'drops the phone’s subscription on sign-out, and every one of the account’s on sign out everywhere',
    async () => {
      const phone = await subscribed('vera', 'vera-phone');
      const tablet = await subscribed('vera', 'vera-tablet');
      const owner = await subscribed('olive', 'olive-phone');
      expect(subscriptionOf(signedIn, phone.endpoint)?.account).toBe('vera');

      const out = await phone.browser.request('/auth/sign-out', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `csrf=${await phone.browser.csrf()}`,
      });
      expect(out.status).toBe(303);
      expect(subscriptionOf(signedIn, phone.endpoint)).toBeUndefined();
      expect(subscriptionOf(signedIn, tablet.endpoint)).toBeDefined();

      const everywhere = await tablet.browser.request('/auth/sign-out-everywhere', {
        method: 'POST',
        headers: { 'x-slabdesk-csrf': await tablet.browser.csrf() },
      });
      expect(everywhere.status).toBe(303);
      expect(subscriptionOf(signedIn, tablet.endpoint)).toBeUndefined();
      expect(subscriptionOf(signedIn, owner.endpoint)).toBeDefined();
    },
    SIGN_IN_HEAVY_MS,
  );
});

describe('the hub’s VAPID keys', () => {
  it('are made once, kept owner-only, and the same after a restart; settings win when given', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'slabdesk-push-')), 'push.db');
    const first = new PushStore(path);
    const made = vapidKeysFor(first, {});
    first.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const again = new PushStore(path);
    expect(vapidKeysFor(again, {})).toEqual(made);
    const given = vapidKeysFor(again, {
      publicKey: 'BPublic',
      privateKey: 'private',
      subject: 'mailto:dealer@example.com',
    });
    expect(given).toEqual({
      publicKey: 'BPublic',
      privateKey: 'private',
      subject: 'mailto:dealer@example.com',
    });
    again.close();
    expect(() => readSettings({ SLABDESK_VAPID_PUBLIC_KEY: made.publicKey })).toThrow(
      SettingsError,
    );
    expect(() => readSettings({ SLABDESK_VAPID_SUBJECT: 'http://example.com' })).toThrow(
      SettingsError,
    );
  });
});
