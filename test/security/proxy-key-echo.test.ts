import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { startAppOver, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { rawBytes } from '../support/raw-http';

/**
 * "Key redaction is verbatim only": a fake upstream (node:http) echoes the key the proxy sent in
 * every encoding it could come back in, in a page, in an error, in headers and in a Link. No
 * form of the key may reach the browser: neither the bytes the upstream wrote, nor the key once
 * the browser decodes them (JSON, percent, base64).
 */
const KEY = 'svc_live_EchoedKey_0123456789abcdefABCDEF';

const allEscaped = (text: string) =>
  [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const allPercent = (text: string) =>
  [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
const b64 = (prefix: string) => Buffer.from(`${prefix}${KEY}`).toString('base64');
const b64url = (prefix: string) => Buffer.from(`${prefix}${KEY}`).toString('base64url');

/** Each encoding as it stands inside a JSON string (escapes written as JSON text). */
const ENCODINGS: Record<string, string> = {
  verbatim: KEY,
  underscore_escaped: KEY.replace(/_/g, '\\u005f'),
  upper_escaped: KEY.replace(/_/g, '\\u005F'),
  all_escaped: allEscaped(KEY),
  one_letter_escaped: KEY.replace('E', '\\u0045'),
  percent_underscore: KEY.replace(/_/g, '%5F'),
  percent_all: allPercent(KEY),
  base64_0: b64(''),
  base64_1: b64('x'),
  base64_2: b64('xy'),
  base64url_0: b64url(''),
  base64url_1: b64url('a'),
  base64url_2: b64url('ab'),
  base64_in_escapes: b64('x').replace(/[+/=]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`),
  base64_percent: encodeURIComponent(b64('xy')),
};
const HEADER_ENCODINGS = Object.entries(ENCODINGS).filter(([name]) => !name.includes('escape'));

let upstream: FakeUpstream;
let app: RunningAppServer;
const received: string[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream((request, response) => {
    received.push(String(request.headers['x-service-access-token']));
    const url = new URL(request.url ?? '/', 'http://upstream');
    const [, kind, name] = /^\/2026-07\/(\w+)\/(\w+)\.json$/.exec(url.pathname) ?? [];
    const encoded = ENCODINGS[name ?? ''] ?? '';
    const headerForm = HEADER_ENCODINGS.find(([n]) => n === name)?.[1] ?? 'none';
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': headerForm,
      link: `<${upstream.url}/2026-07/listings.json?page_info=${encodeURIComponent(headerForm)}>; rel="next"`,
    };
    if (kind === 'listings') {
      response.writeHead(200, headers);
      response.end(
        `{"listing":{"id":"lst_1","title":"Card","description":"${encoded}","${encoded}":1}}`,
      );
    } else {
      response.writeHead(400, headers);
      response.end(
        `{"errors":"Bad token ${encoded}","svc_error":{"code":"invalid_api_key","request_id":"${encoded}","echo":"${KEY}","reason":"${encoded}"},"debug":"${KEY}"}`,
      );
    }
  });
  app = await startAppOver(upstream.url, KEY);
});

afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

/** Raw HTTP, gzip asked for or not (the bytes as sent). */
async function get(path: string, gzip = false): Promise<{ headers: string; body: string }> {
  const answer = await rawBytes(app.url, path, {
    headers: gzip ? { 'accept-encoding': 'gzip' } : {},
  });
  const body =
    answer.headers['content-encoding'] === 'gzip' ? gunzipSync(answer.body) : answer.body;
  return { headers: JSON.stringify(answer.headers), body: body.toString('utf8') };
}

/** Every way the browser could read the key out of a text. */
function leaks(text: string): string[] {
  const found: string[] = [];
  const views: Record<string, string> = { raw: text };
  try {
    views.json = JSON.stringify(JSON.parse(text));
  } catch {
    // not JSON: the other views still apply
  }
  const unescaped = text.replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) =>
    String.fromCharCode(parseInt(h, 16)),
  );
  views.unescaped = unescaped;
  views.percent = unescaped.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) =>
    String.fromCharCode(parseInt(h, 16)),
  );
  for (const [view, value] of Object.entries(views)) {
    if (value.includes(KEY)) found.push(`${view}: verbatim`);
    // Every run of base64 characters, decoded at each offset.
    for (const run of value.match(/[A-Za-z0-9+/\-_]{16,}={0,2}/g) ?? []) {
      for (let offset = 0; offset < 4; offset++) {
        const decoded = Buffer.from(run.slice(offset), 'base64').toString('latin1');
        if (decoded.includes(KEY.slice(3, -3))) found.push(`${view}: base64 ${run}`);
      }
    }
  }
  for (const encoded of Object.values(ENCODINGS)) {
    if (text.includes(encoded)) found.push(`bytes as the upstream wrote them: ${encoded}`);
  }
  return found;
}

describe('an upstream that echoes the key', () => {
  for (const name of Object.keys(ENCODINGS)) {
    it(`never gets it to the browser: ${name}`, async () => {
      for (const gzip of [false, true]) {
        const page = await get(`/api/2026-07/listings/${name}.json`, gzip);
        expect(leaks(page.body), 'page body').toEqual([]);
        expect(leaks(page.headers), 'page headers').toEqual([]);
        // The page is still a page: the fields that do not hold the key come through.
        expect(JSON.parse(page.body)).toMatchObject({ listing: { id: 'lst_1', title: 'Card' } });

        const error = await get(`/api/2026-07/errors/${name}.json`, gzip);
        expect(leaks(error.body), 'error body').toEqual([]);
        expect(leaks(error.headers), 'error headers').toEqual([]);
        // The error keeps its envelope and code, and nothing the envelope does not know.
        const envelope = JSON.parse(error.body) as Record<string, unknown>;
        expect(envelope).toMatchObject({ svc_error: { code: 'invalid_api_key' } });
        expect(Object.keys(envelope).sort()).toEqual(['errors', 'svc_error']);
      }
    });
  }

  it('was sent the key (so the test is real)', () => {
    expect(received.every((token) => token === KEY)).toBe(true);
    expect(received.length).toBeGreaterThan(0);
  });
});
