import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { raw, rawBytes } from '../support/raw-http';
import { startHarness, type Harness } from '../support/sandbox-harness';

let harness: Harness;
let app: RunningAppServer;
let token: string;

beforeAll(async () => {
  harness = await startHarness();
  ({ token } = await harness.seller());
  const dist = mkdtempSync(join(tmpdir(), 'slabdesk-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>t</title><div id="root"></div>');
  writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1);');
  app = await startAppServer(
    { upstream: { baseUrl: harness.url, apiKey: token }, port: 0 },
    async () => distPages(dist),
  );
});

/** Servers a test started, closed after the file's tests. */
const after: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const close of after) await close();
  await app?.close();
  await harness?.close();
});

describe('the API proxy', () => {
  it('forwards to the upstream with the key added, and never returns the key', async () => {
    const res = await raw(app.url, '/api/2026-07/ping');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).ping.ok).toBe(true);
    expect(res.headers['x-service-api-mode']).toBe('live');
    expect(res.headers['x-service-api-call-limit']).toMatch(/^\d+\/40$/);
    expect(res.body).not.toContain(token);
    expect(JSON.stringify(res.headers)).not.toContain(token);
  });

  it('rewrites Link URLs to come back through the proxy, without the key', async () => {
    for (let i = 0; i < 3; i++) {
      await harness.control('POST', '/inventory_items', {
        seller_id: (await harness.api('/ping', { token }).then((r) => r.json())).ping.seller_id,
        cert_number: `9900${i}`,
        grader: 'PSA',
      });
    }
    const first = await raw(app.url, '/api/2026-07/inventory_items.json?limit=1');
    expect(first.status).toBe(200);
    const link = String(first.headers.link);
    const next = /<([^>]+)>;\s*rel="next"/.exec(link)?.[1];
    expect(next).toBeDefined();
    expect(next!.startsWith(`${app.url}/api/2026-07/inventory_items.json?`)).toBe(true);
    expect(link).not.toContain(harness.url);
    expect(link).not.toContain(token);
    const second = await raw(app.url, new URL(next!).pathname + new URL(next!).search);
    expect(second.status).toBe(200);
    const ids = [first, second].map((r) => JSON.parse(r.body).inventory_items[0].id);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('packs a long answer for a browser that takes brotli or gzip, on this machine too, and sends it plain otherwise', async () => {
    const sellerId = (await harness.api('/ping', { token }).then((r) => r.json())).ping.seller_id;
    for (let i = 0; i < 12; i++) {
      await harness.control('POST', '/inventory_items', {
        seller_id: sellerId,
        cert_number: `7700${i}`,
        grader: 'PSA',
      });
    }
    const path = '/api/2026-07/inventory_items.json?limit=250';
    const plain = await raw(app.url, path);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Buffer.byteLength(plain.body)).toBeGreaterThan(1024);
    const packed = await rawBytes(app.url, path, {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(packed.status).toBe(200);
    // A browser's list names brotli: the fewer bytes.
    expect(packed.headers['content-encoding']).toBe('br');
    expect(packed.headers.vary).toMatch(/accept-encoding/i);
    expect(packed.body.length).toBeLessThan(Buffer.byteLength(plain.body) / 2);
    const unpacked = JSON.parse(brotliDecompressSync(packed.body).toString('utf8'));
    expect(unpacked.inventory_items.map((item: { id: string }) => item.id)).toEqual(
      JSON.parse(plain.body).inventory_items.map((item: { id: string }) => item.id),
    );
    // A short answer is not worth packing.
    const ping = await rawBytes(app.url, '/api/2026-07/ping', {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(ping.headers['content-encoding']).toBeUndefined();
  });

  it('drops credentials the browser sends and uses only its own key', async () => {
    const res = await raw(app.url, '/api/2026-07/ping?access_token=svc_live_nope', {
      headers: { authorization: 'Bearer svc_live_nope', 'x-service-access-token': 'svc_live_nope' },
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).ping.ok).toBe(true);
  });

  it('passes API errors through with their svc_error and request id', async () => {
    const res = await raw(app.url, '/api/2026-07/listings/lst_missing.json');
    expect(res.status).toBe(404);
    const body = JSON.parse(res.body);
    expect(body.svc_error.code).toBe('not_found');
    expect(res.headers['x-request-id']).toBe(body.svc_error.request_id);
  });

  it('forwards only versioned API paths, never the control API', async () => {
    expect((await raw(app.url, '/api/_sandbox/demo')).status).toBe(404);
    // A path that climbs is not well formed: refused before any route.
    expect((await raw(app.url, '/api/2026-07/../_sandbox/demo')).status).toBe(400);
    expect((await raw(app.url, '/api/2026-07/%2e%2e/_sandbox/demo')).status).toBe(400);
  });
});

describe('an upstream that echoes the key', () => {
  it('never passes the key on: it is redacted from a short or long answer, plain or gzipped', async () => {
    // Not the sandbox (which never echoes a key): a server that puts the key it got in its answer.
    const echo = createServer((req, res) => {
      const key = String(req.headers['x-service-access-token']);
      const long = req.url?.includes('long');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ echo: key, pad: long ? 'x'.repeat(4000) : '', tail: key }));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const key = 'svc_live_echoed_key_123';
    const proxy = await startAppServer(
      {
        upstream: {
          baseUrl: `http://127.0.0.1:${(echo.address() as AddressInfo).port}`,
          apiKey: key,
        },
        port: 0,
      },
      async () => distPages(mkdtempSync(join(tmpdir(), 'slabdesk-dist-'))),
    );
    try {
      for (const path of ['/api/2026-07/short', '/api/2026-07/long']) {
        const plain = await raw(proxy.url, path);
        expect(JSON.parse(plain.body)).toMatchObject({ echo: '[redacted]', tail: '[redacted]' });
        const packed = await rawBytes(proxy.url, path, { headers: { 'accept-encoding': 'gzip' } });
        const text =
          packed.headers['content-encoding'] === 'gzip'
            ? gunzipSync(packed.body).toString('utf8')
            : packed.body.toString('utf8');
        expect(text).not.toContain(key);
        expect(JSON.parse(text).echo).toBe('[redacted]');
      }
    } finally {
      await proxy.close();
      await new Promise((resolve) => echo.close(resolve));
    }
  });
});

describe('the request guard', () => {
  it('refuses a Host that is not its own (DNS rebinding)', async () => {
    const port = new URL(app.url).port;
    for (const host of [`evil.example:${port}`, `127.0.0.1:${Number(port) + 1}`, 'localhost']) {
      const api = await raw(app.url, '/api/2026-07/ping', { headers: { host } });
      expect(api.status).toBe(421);
      expect(api.body).not.toContain('ping');
      expect((await raw(app.url, '/', { headers: { host } })).status).toBe(421);
    }
    expect(
      (await raw(app.url, '/api/2026-07/ping', { headers: { host: `localhost:${port}` } })).status,
    ).toBe(200);
  });

  it('refuses a cross-site Origin or Sec-Fetch-Site on the API', async () => {
    const cases: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of cases) {
      const res = await raw(app.url, '/api/2026-07/ping', { headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      const post = await raw(app.url, '/api/2026-07/listings.json', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ listing: { sku: '1', price: '10.00' } }),
      });
      expect(post.status).toBe(403);
    }
    const own = await raw(app.url, '/api/2026-07/ping', {
      headers: { origin: app.url, 'sec-fetch-site': 'same-origin' },
    });
    expect(own.status).toBe(200);
  });

  it('lets a link from another site open the page, but nothing else cross-site', async () => {
    const nav = await raw(app.url, '/listings', {
      headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
    });
    expect(nav.status).toBe(200);
    const script = await raw(app.url, '/assets/app.js', {
      headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
    });
    expect(script.status).toBe(403);
  });

  it('serves the page with a strict Content-Security-Policy and no inline script', async () => {
    const res = await raw(app.url, '/orders/ord_1');
    expect(res.status).toBe(200);
    expect(res.body).toContain('<div id="root">');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    // No JavaScript eval; WebAssembly may compile (the barcode reader's polyfill), nothing more.
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval'(;| 'nonce-)/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('allows the page’s inline stylesheet by its hash alone, and gzips the page', async () => {
    const css = 'body{color:#123}.topbar{display:flex}';
    const dist = mkdtempSync(join(tmpdir(), 'slabdesk-dist-'));
    writeFileSync(
      join(dist, 'index.html'),
      // As big as a real page (over the size worth packing), which inlines its stylesheet.
      `<!doctype html><title>t</title><style>${css}</style><div id="root"></div>${'<p>'.repeat(400)}`,
    );
    const styled = await startAppServer(
      { upstream: { baseUrl: harness.url, apiKey: token }, port: 0 },
      async () => distPages(dist),
    );
    after.push(() => styled.close());
    const res = await rawBytes(styled.url, '/listings', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.body).toString('utf8')).toContain(`<style>${css}</style>`);
    const hash = createHash('sha256').update(css).digest('base64');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain(`style-src 'self' 'sha256-${hash}'`);
    expect(csp).not.toContain('unsafe-inline');
    // A page without an inline style allows none.
    const plain = await raw(app.url, '/listings');
    expect(String(plain.headers['content-security-policy'])).toMatch(/style-src 'self';/);
  });

  it('binds to 127.0.0.1 by default', () => {
    const address = app.server.address();
    expect(typeof address === 'object' && address?.address).toBe('127.0.0.1');
  });
});
