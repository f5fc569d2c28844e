import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rewriteLinkHeader, upstreamPath, upstreamUrlOf } from '../../src/server/proxy-url';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { parseCliOptions } from '../../src/server/run-server';
import { distPages } from '../../src/server/dist-pages';
import { rawBytes } from '../support/raw-http';

describe('Vite-style flags', () => {
  it('takes --port, --strictPort and --host like Vite', () => {
    expect(parseCliOptions([], 5173)).toMatchObject({
      host: '127.0.0.1',
      port: 5173,
      strictPort: false,
    });
    expect(parseCliOptions(['--port', '5999', '--strictPort'], 5173)).toMatchObject({
      port: 5999,
      strictPort: true,
    });
    expect(parseCliOptions(['--port=6000'], 5173).port).toBe(6000);
    expect(parseCliOptions(['--host'], 5173).host).toBe('0.0.0.0');
    expect(parseCliOptions(['--host', '--port', '7000'], 5173)).toMatchObject({
      host: '0.0.0.0',
      port: 7000,
    });
    const named = parseCliOptions(['--host', 'desk.local'], 5173);
    expect(named.host).toBe('desk.local');
    expect(named.allowedHosts).toContain('desk.local');
    expect(() => parseCliOptions(['--port', 'x'], 5173)).toThrow(/--port/);
    expect(() => parseCliOptions(['--bogus'], 5173)).toThrow(/unknown flag '--bogus'/);
    expect(() => parseCliOptions(['--port'], 5173)).toThrow(/--port/);
    expect(() => parseCliOptions(['stray'], 5173)).toThrow(/Unexpected argument 'stray'/);
  });

  it('takes --strict-port too, a bare --host before another flag, and ignores --open', () => {
    expect(parseCliOptions(['--strict-port', '--open'], 5173)).toMatchObject({
      host: '127.0.0.1',
      strictPort: true,
    });
    expect(parseCliOptions(['--open', '--host', '--strictPort'], 5173)).toMatchObject({
      host: '0.0.0.0',
      strictPort: true,
    });
    expect(parseCliOptions(['--host=192.168.1.20'], 5173).allowedHosts).not.toContain(
      '192.168.1.20',
    );
  });
});

describe('proxy path rules', () => {
  it('maps only versioned API paths', () => {
    expect(upstreamPath('/api/2026-07/listings.json')).toBe('/2026-07/listings.json');
    expect(upstreamPath('/api/2026-07/orders/SL-7K2Q9D.json')).toBe(
      '/2026-07/orders/SL-7K2Q9D.json',
    );
    expect(upstreamPath('/api/_sandbox/reset')).toBeNull();
    expect(upstreamPath('/api/2026-07/../_sandbox/reset')).toBeNull();
    expect(upstreamPath('/other')).toBeNull();
  });

  it('rewrites Link URLs of a deployment under a base path, and drops credential parameters', () => {
    const link =
      '<https://api.example.com/partner/2026-07/orders.json?limit=50&page_info=abc&access_token=svc_live_x>; rel="next", <https://docs.example.com/2026-07>; rel="sunset"';
    const out = rewriteLinkHeader(
      link,
      'https://api.example.com/partner/',
      'http://127.0.0.1:5173',
    );
    const next = /<([^>]+)>; rel="next"/.exec(out)![1]!;
    expect(next).toMatch(
      /^http:\/\/127\.0\.0\.1:5173\/api\/2026-07\/orders\.json\?limit=50&page_info=abc&slabdesk_link=[\w-]+$/,
    );
    expect(upstreamUrlOf(new URL(next), 'https://api.example.com/partner')).toBe(
      'https://api.example.com/partner/2026-07/orders.json?limit=50&page_info=abc',
    );
    expect(out).not.toContain('svc_live_x');
    expect(out).toContain('<https://docs.example.com/2026-07>; rel="sunset"');
  });
});

describe('serving the built bundle', () => {
  let app: RunningAppServer;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'slabdesk-static-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(
      join(dist, 'assets', 'app-abc.js'),
      `console.log(${JSON.stringify('x'.repeat(4000))});`,
    );
    app = await startAppServer(
      { upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_live_k' }, port: 0 },
      async () => distPages(dist),
    );
  });
  afterAll(() => app?.close());

  const get = (path: string, headers: Record<string, string> = {}) =>
    rawBytes(app.url, path, { headers });

  it('serves hashed assets gzipped and cached for good', async () => {
    const res = await get('/assets/app-abc.js', { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toContain('immutable');
    expect(gunzipSync(res.body).toString()).toContain('console.log');
  });

  it('a later server of the process serves a file as it is now, not as first read', async () => {
    const first = await get('/assets/app-abc.js', { 'accept-encoding': 'gzip' });
    writeFileSync(join(dist, 'assets', 'app-abc.js'), `console.log('rebuilt');`);
    const later = await startAppServer(
      { upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_live_k' }, port: 0 },
      async () => distPages(dist),
    );
    try {
      const res = await fetch(`${later.url}/assets/app-abc.js`);
      expect(await res.text()).toBe(`console.log('rebuilt');`);
    } finally {
      await later.close();
      writeFileSync(join(dist, 'assets', 'app-abc.js'), gunzipSync(first.body));
    }
  });

  it('serves the page for app paths and never a file outside dist', async () => {
    const page = await get('/listings/lst_1/edit');
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain('<div id="root">');
    const escape = await get('/assets/../../../../etc/passwd');
    expect(escape.body.toString()).not.toContain('root:');
  });

  it('answers 502 with an svc_error when the upstream is down, without the key', async () => {
    const res = await get('/api/2026-07/ping');
    expect(res.status).toBe(502);
    const body = JSON.parse(res.body.toString()) as { svc_error: { code: string } };
    expect(body.svc_error.code).toBe('upstream_unreachable');
    expect(res.body.toString()).not.toContain('svc_live_k');
  });
});
