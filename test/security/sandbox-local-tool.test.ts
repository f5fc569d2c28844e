import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEMO_LIVE_TOKEN,
  DEMO_SELLER_ID,
  optionsFromEnv,
  startSandbox,
  type RunningSandbox,
} from '../../src/sandbox';
import { startAppServer } from '../../src/server/app-server';
import { hubOptionsFor } from '../../src/server/run-server';
import { startEmbeddedSandbox } from '../../src/main/embedded-sandbox';
import { raw as rawText, type RawOptions } from '../support/raw-http';

/**
 * The sandbox as a local tool (issue 33, item 5): the seller's own browser can reach 127.0.0.1,
 * with any site open in it. Raw HTTP, so each test sets Host, Origin and Sec-Fetch-Site exactly as
 * a browser on another site (or a DNS-rebinding page) would.
 */
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: Record<string, unknown>;
}

/** Raw HTTP (as `test/support/raw-http`), the body as text and, when it is JSON, parsed. */
async function raw(url: string, path: string, options: RawOptions = {}): Promise<Answer> {
  const { status, headers, body: text } = await rawText(url, path, options);
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON: the test looks at `text`.
  }
  return { status, headers, text, json };
}

const JSON_TYPE = { 'content-type': 'application/json' };
/** What a page on another site sends with `fetch(..., {mode: 'no-cors'})`: no preflight. */
const FROM_EVIL = {
  origin: 'https://evil.example',
  'sec-fetch-site': 'cross-site',
  'sec-fetch-mode': 'no-cors',
  'content-type': 'text/plain;charset=UTF-8',
};
const code = (answer: Answer) => (answer.json.svc_error as { code?: string } | undefined)?.code;

/** An object nested `depth` deep around `leaf`, as JSON text (built without recursion). */
const nested = (depth: number, leaf = '"x"') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);

let sandbox: RunningSandbox;
let url: string;
let port: string;
let listingIds: string[];

async function demoListingCount(): Promise<number> {
  const answer = await raw(url, `/_sandbox/listings?seller_id=${DEMO_SELLER_ID}`);
  return (answer.json.products as unknown[]).length;
}

/** A fresh demo sandbox for each group, so that one group's damage cannot hide another's. */
function withFreshSandbox(): void {
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, db: ':memory:', seed: 'demo', demoListings: 40 });
    url = sandbox.url;
    port = new URL(url).port;
    const answer = await raw(url, `/_sandbox/listings?seller_id=${DEMO_SELLER_ID}`);
    listingIds = (answer.json.products as { id: string; status: string }[])
      .filter((p) => p.status === 'active')
      .map((p) => p.id);
  });
  afterAll(async () => {
    await sandbox?.close();
  });
}

describe('Host: the sandbox answers only to its own names', () => {
  withFreshSandbox();

  it('refuses /_sandbox/demo under a foreign Host (DNS rebinding) without the keys', async () => {
    const answer = await raw(url, '/_sandbox/demo', { headers: { host: `evil.example:${port}` } });
    expect(answer.status).toBe(421);
    expect(answer.json.error).toMatch(/Host/);
    expect(answer.text).not.toContain(DEMO_LIVE_TOKEN);
  });

  it('refuses the public API under a foreign Host, in the spec error shape', async () => {
    const answer = await raw(url, '/2026-07/ping', {
      headers: { host: `evil.example:${port}`, 'x-service-access-token': DEMO_LIVE_TOKEN },
    });
    expect(answer.status).toBe(421);
    expect(code(answer)).toBe('misdirected_request');
    expect(answer.headers['x-request-id']).toBeTruthy();
    expect(answer.headers['x-service-api-version']).toBe('2026-07');
  });

  it('answers its loopback names with its port, and no other port', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      expect((await raw(url, '/_sandbox/demo', { headers: { host } })).status).toBe(200);
    }
    expect((await raw(url, '/_sandbox/demo', { headers: { host: 'localhost:1' } })).status).toBe(
      421,
    );
  });

  it('answers names in SANDBOX_ALLOWED_HOSTS, with or without a port', async () => {
    const options = optionsFromEnv({
      SANDBOX_ALLOWED_HOSTS: 'sandbox.lan, box.example:8443',
    });
    expect(options.allowedHosts).toEqual(['sandbox.lan', 'box.example:8443']);
    const named = await startSandbox({ port: 0, db: ':memory:', seed: 'none', ...options });
    try {
      const status = async (host: string) =>
        (await raw(named.url, '/_sandbox/clock', { headers: { host } })).status;
      expect(await status('sandbox.lan')).toBe(200);
      expect(await status('sandbox.lan:9999')).toBe(200);
      expect(await status('box.example:8443')).toBe(200);
      expect(await status('box.example')).toBe(421);
      expect(await status('box.example:9000')).toBe(421);
      expect(await status('other.lan')).toBe(421);
    } finally {
      await named.close();
    }
  });

  it('still lets anyone open the listing pages that listings link to', async () => {
    const listing = await raw(url, `/2026-07/listings/${listingIds[0]}.json`, {
      headers: { 'x-service-access-token': DEMO_LIVE_TOKEN },
    });
    const page = new URL((listing.json.listing as { url: string }).url).pathname;
    expect(page).toMatch(/^\/market\//);
    const answer = await raw(url, page, {
      headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
    });
    expect(answer.status).toBe(200);
  });
});

describe('Cross-site: a page on another site cannot drive the sandbox', () => {
  withFreshSandbox();

  it('refuses a cross-site webhook registration to an outside address', async () => {
    const answer = await raw(url, '/_sandbox/webhooks', {
      method: 'POST',
      headers: FROM_EVIL,
      body: JSON.stringify({ seller_id: DEMO_SELLER_ID, url: 'https://collector.evil.example/h' }),
    });
    expect(answer.status).toBe(403);
    const list = await raw(url, `/_sandbox/webhooks?seller_id=${DEMO_SELLER_ID}`);
    expect(list.text).not.toContain('collector.evil.example');
  });

  it('refuses a cross-site key mint', async () => {
    const answer = await raw(url, '/_sandbox/keys', {
      method: 'POST',
      headers: FROM_EVIL,
      body: JSON.stringify({ seller_id: DEMO_SELLER_ID, mode: 'live', scopes: ['read_listings'] }),
    });
    expect(answer.status).toBe(403);
    expect(answer.text).not.toContain('svc_live_');
  });

  it('refuses cross-site calls to the public API (spec shape), and lets its own origin in', async () => {
    const crossSite = await raw(url, '/2026-07/listings.json', {
      headers: { 'x-service-access-token': DEMO_LIVE_TOKEN, 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    expect(code(crossSite)).toBe('cross_site_request');
    const foreignOrigin = await raw(url, `/2026-07/listings/${listingIds[0]}.json`, {
      method: 'PUT',
      headers: { 'x-service-access-token': DEMO_LIVE_TOKEN, origin: 'https://evil.example' },
    });
    expect(foreignOrigin.status).toBe(403);
    expect(code(foreignOrigin)).toBe('cross_site_request');
    const own = await raw(url, '/2026-07/ping', {
      headers: {
        'x-service-access-token': DEMO_LIVE_TOKEN,
        origin: url,
        'sec-fetch-site': 'same-origin',
      },
    });
    expect(own.status).toBe(200);
  });

  it('refuses a cross-site reset, and the listings are still there', async () => {
    const before = await demoListingCount();
    expect(before).toBeGreaterThan(0);
    const answer = await raw(url, '/_sandbox/reset', {
      method: 'POST',
      headers: FROM_EVIL,
      body: '{"seed":"none"}',
    });
    expect(answer.status).toBe(403);
    expect(answer.json.error).toMatch(/another site/);
    expect(await demoListingCount()).toBe(before);
  });

  it('refuses a reset from a foreign Origin (an older browser, no Sec-Fetch-Site), even bodyless', async () => {
    const before = await demoListingCount();
    for (const origin of ['https://evil.example', 'null', `http://localhost:${Number(port) + 1}`]) {
      const answer = await raw(url, '/_sandbox/reset', { method: 'POST', headers: { origin } });
      expect(answer.status).toBe(403);
    }
    const sameSite = await raw(url, '/_sandbox/reset', {
      method: 'POST',
      headers: { 'sec-fetch-site': 'same-site', ...JSON_TYPE },
      body: '{}',
    });
    expect(sameSite.status).toBe(403);
    expect(await demoListingCount()).toBe(before);
  });
});

describe('Bodies: JSON only', () => {
  withFreshSandbox();

  it('refuses a text/plain control body with 415 {error}, and mints nothing', async () => {
    const before = await raw(url, `/_sandbox/webhooks?seller_id=${DEMO_SELLER_ID}`);
    const answer = await raw(url, '/_sandbox/webhooks', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ seller_id: DEMO_SELLER_ID, url: 'https://text.example/h' }),
    });
    expect(answer.status).toBe(415);
    expect(answer.json.error).toMatch(/application\/json/);
    const after = await raw(url, `/_sandbox/webhooks?seller_id=${DEMO_SELLER_ID}`);
    expect(after.text).toBe(before.text);
    const form = await raw(url, '/_sandbox/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: JSON.stringify({ seller_id: DEMO_SELLER_ID, mode: 'live', scopes: [] }),
    });
    expect(form.status).toBe(415);
  });

  it('refuses a text/plain public write with 415 unsupported_media_type, and changes nothing', async () => {
    const id = listingIds[1]!;
    const before = await raw(url, `/_sandbox/listings/${id}`);
    const answer = await raw(url, `/2026-07/listings/${id}.json`, {
      method: 'PUT',
      headers: { 'x-service-access-token': DEMO_LIVE_TOKEN, 'content-type': 'text/plain' },
      body: JSON.stringify({ listing: { price: '1.00' } }),
    });
    expect(answer.status).toBe(415);
    expect(code(answer)).toBe('unsupported_media_type');
    expect(answer.headers['x-service-api-call-limit']).toMatch(/^\d+\/\d+$/);
    const after = await raw(url, `/_sandbox/listings/${id}`);
    expect((after.json.product as { price?: unknown }).price).toEqual(
      (before.json.product as { price?: unknown }).price,
    );
  });

  it('accepts application/json with a charset', async () => {
    const answer = await raw(url, '/_sandbox/sellers', {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '{}',
    });
    expect(answer.status).toBe(200);
  });

  it('still takes the bodyless control posts of the contract (revoke, rotate)', async () => {
    const minted = await raw(url, '/_sandbox/keys', {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ seller_id: DEMO_SELLER_ID, mode: 'live', scopes: ['read_listings'] }),
    });
    const key = minted.json.key as { id: string };
    const revoked = await raw(url, `/_sandbox/keys/${key.id}/revoke`, { method: 'POST' });
    expect(revoked.status).toBe(200);
    expect((revoked.json.key as { id: string }).id).toBe(key.id);

    const made = await raw(url, '/_sandbox/webhooks', {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ seller_id: DEMO_SELLER_ID, url: 'http://127.0.0.1:9/hook' }),
    });
    const webhook = made.json.webhook as { id: string; secret: string };
    const rotated = await raw(url, `/_sandbox/webhooks/${webhook.id}/rotate`, { method: 'POST' });
    expect(rotated.status).toBe(200);
    expect((rotated.json.webhook as { secret: string }).secret).not.toBe(webhook.secret);
    // Node's fetch with an empty body sends text/plain: nothing to misread, so it passes too.
    const emptyText = await fetch(`${url}/_sandbox/webhooks/${webhook.id}/rotate`, {
      method: 'POST',
      body: '',
    });
    expect(emptyText.status).toBe(200);
  });
});

describe('The control token', () => {
  let closed: RunningSandbox;
  const TOKEN = 'local-control-token-7f3a';

  beforeAll(async () => {
    closed = await startSandbox({
      port: 0,
      db: ':memory:',
      seed: 'demo',
      demoListings: 10,
      ...optionsFromEnv({ SANDBOX_CONTROL_TOKEN: TOKEN }),
    });
  });
  afterAll(async () => {
    await closed?.close();
  });

  it('answers 401 {error} with no token or a wrong one, on reads and writes', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong' },
      { 'x-sandbox-control-token': `${TOKEN}x` },
      { authorization: TOKEN },
    ];
    for (const headers of attempts) {
      const demo = await raw(closed.url, '/_sandbox/demo', { headers });
      expect(demo.status).toBe(401);
      expect(demo.json.error).toMatch(/token/);
      expect(demo.text).not.toContain(DEMO_LIVE_TOKEN);
    }
    const reset = await raw(closed.url, '/_sandbox/reset', { method: 'POST' });
    expect(reset.status).toBe(401);
    const encoded = await raw(closed.url, '/%5Fsandbox/demo');
    expect(encoded.status).not.toBe(200);
    expect(encoded.text).not.toContain(DEMO_LIVE_TOKEN);
  });

  it('opens with the right token, as a Bearer or in X-Sandbox-Control-Token', async () => {
    const bearer = await raw(closed.url, '/_sandbox/demo', {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(bearer.status).toBe(200);
    const own = await raw(closed.url, '/_sandbox/keys', {
      method: 'POST',
      headers: { 'x-sandbox-control-token': TOKEN, ...JSON_TYPE },
      body: JSON.stringify({ seller_id: DEMO_SELLER_ID, mode: 'test', scopes: [] }),
    });
    expect(own.status).toBe(200);
  });

  it('leaves the public API to its keys', async () => {
    const ping = await raw(closed.url, '/2026-07/ping', {
      headers: { 'x-service-access-token': DEMO_LIVE_TOKEN },
    });
    expect(ping.status).toBe(200);
  });

  it('closes the embedded sandbox of npm run dev, and the server still registers its webhooks', async () => {
    const upstream = await startEmbeddedSandbox({ SLABDESK_SANDBOX_DB: ':memory:' }, {});
    try {
      const token = upstream.embedded?.controlToken;
      expect(token).toBeTruthy();
      expect((await raw(upstream.baseUrl, '/_sandbox/demo')).status).toBe(401);
      const app = await startAppServer({ upstream, port: 0, hub: hubOptionsFor(upstream) }, () =>
        Promise.resolve({
          development: false,
          register: async () => {},
          pageHtml: async () => '<!doctype html><title>t</title>',
        }),
      );
      try {
        expect(app.hub.status().webhooks).toBe('registered');
        const list = await raw(upstream.baseUrl, `/_sandbox/webhooks?seller_id=${DEMO_SELLER_ID}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(list.text).toContain(`${app.url}/hub/webhooks`);
      } finally {
        await app.close();
      }
    } finally {
      await upstream.close();
    }
  });
});

describe('Binding', () => {
  it('warns that the control API is open when bound beyond loopback with no token', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const open = await startSandbox({ host: '0.0.0.0', port: 0, db: ':memory:', seed: 'none' });
      // It starts all the same (the contract documents SANDBOX_HOST), and answers at its URL.
      expect((await raw(open.url, '/_sandbox/clock')).status).toBe(200);
      await open.close();
      expect(warn.mock.calls.flat().join(' ')).toMatch(/SANDBOX_CONTROL_TOKEN/);
      warn.mockClear();
      const closedOne = await startSandbox({
        host: '0.0.0.0',
        port: 0,
        db: ':memory:',
        seed: 'none',
        controlToken: 't',
      });
      await closedOne.close();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});

describe('Deep bodies: a 422, never a 500', () => {
  withFreshSandbox();

  it('answers a description nested 5,000 deep with an Idempotency-Key 422, and keeps answering', async () => {
    const id = listingIds[2]!;
    const answer = await raw(url, `/2026-07/listings/${id}.json`, {
      method: 'PUT',
      headers: {
        'x-service-access-token': DEMO_LIVE_TOKEN,
        'idempotency-key': 'deep-1',
        ...JSON_TYPE,
      },
      body: `{"listing":{"description":${nested(5000)}}}`,
    });
    expect(answer.status).toBe(422);
    expect(code(answer)).toBe('validation_error');
    expect(JSON.stringify(answer.json.errors)).toMatch(/deeper than 64 levels/);
    const ping = await raw(url, '/2026-07/ping', {
      headers: { 'x-service-access-token': DEMO_LIVE_TOKEN },
    });
    expect(ping.status).toBe(200);
  });

  it('answers the same 422 for a deep create, and for a field given twice deep (no key)', async () => {
    const create = await raw(url, '/2026-07/listings.json', {
      method: 'POST',
      headers: {
        'x-service-access-token': DEMO_LIVE_TOKEN,
        'idempotency-key': 'deep-2',
        ...JSON_TYPE,
      },
      body: `{"listing":{"sku":"1","price":"1.00","description":${nested(5000, '[1]')}}}`,
    });
    expect(create.status).toBe(422);
    const twice = await raw(url, `/2026-07/listings/${listingIds[2]}.json`, {
      method: 'PUT',
      headers: { 'x-service-access-token': DEMO_LIVE_TOKEN, ...JSON_TYPE },
      body: `{"listing":{"description":${nested(5000)},"variants":[{"body_html":${nested(5000, '"y"')}}]}}`,
    });
    expect(twice.status).toBe(422);
  });

  it('counts no bracket inside a string (an escaped quote included)', async () => {
    const description = `${'{'.repeat(200)} "quoted" \\ ${'['.repeat(200)}`;
    const answer = await raw(url, `/2026-07/listings/${listingIds[4]}.json`, {
      method: 'PUT',
      headers: {
        'x-service-access-token': DEMO_LIVE_TOKEN,
        'idempotency-key': 'brackets-in-a-string',
        ...JSON_TYPE,
      },
      body: JSON.stringify({ listing: { description } }),
    });
    expect(answer.status).toBe(200);
    const stored = await raw(url, `/_sandbox/listings/${listingIds[4]}`);
    expect((stored.json.product as { body_html?: string }).body_html).toBe(description);
  });

  it('takes 64 levels, and refuses a deep control body with 400 {error}', async () => {
    const ok = await raw(url, `/2026-07/listings/${listingIds[3]}.json`, {
      method: 'PUT',
      headers: {
        'x-service-access-token': DEMO_LIVE_TOKEN,
        'idempotency-key': 'deep-3',
        ...JSON_TYPE,
      },
      // 64 levels in all: the body, the listing, and 62 more.
      body: `{"listing":{"description":${nested(62)}}}`,
    });
    expect(ok.status).toBe(422);
    expect(JSON.stringify(ok.json.errors)).not.toMatch(/deeper/);
    const control = await raw(url, '/_sandbox/sellers', {
      method: 'POST',
      headers: JSON_TYPE,
      body: `{"state":${nested(5000)}}`,
    });
    expect(control.status).toBe(400);
    expect(control.json.error).toMatch(/deeper than 64/);
  });
});
