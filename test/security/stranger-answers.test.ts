import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { raw, type RawAnswer } from '../support/raw-http';
import { hubForFile } from './auth-http';

/**
 * What a stranger's request that no route answers gets back: every refusal of the server's own is
 * the API's error envelope (`svc_error.code`), never text of another shape, and changes nothing.
 * The finding "the request guard answers `Refused: …` as plain text": a method no route takes, an
 * unknown Host and a cross-site Origin were refused in words the page's error reader cannot read.
 * And "a request Node cannot parse answers Fastify's own `{"error","message","statusCode"}`": a
 * request line or framing it cannot read, or headers past their size.
 */

const hub = hubForFile();

const own = () => ({ origin: hub.app.url, 'sec-fetch-site': 'same-origin' });

/** The answer is the envelope with `code`, as JSON, never kept by a cache. */
function expectEnvelope(answer: RawAnswer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(JSON.parse(answer.body)).toMatchObject({ svc_error: { code } });
}

describe('the request guard’s refusals', () => {
  it('answers a method no route takes in the envelope, and what it names is left as it was', async () => {
    const put = await raw(hub.app.url, '/hub/costs/item-1', {
      method: 'PUT',
      headers: { ...own(), 'content-type': 'application/json' },
      body: JSON.stringify({ cost: '12.50' }),
      whole: true,
    });
    expect(put.status).toBe(200);
    for (const method of ['DELETE', 'PATCH', 'OPTIONS', 'PROPFIND', 'TRACE']) {
      const answer = await raw(hub.app.url, '/hub/costs/item-1', { method, headers: own() });
      expectEnvelope(answer, 405, 'method_not_allowed');
    }
    const costs = JSON.parse((await raw(hub.app.url, '/hub/costs')).body) as {
      costs: { itemId: string; cost: string }[];
    };
    expect(costs.costs).toMatchObject([{ itemId: 'item-1', cost: '12.50' }]);
  });

  it('answers an unknown Host in the envelope, on the API and the page', async () => {
    for (const path of ['/hub/costs', '/', '/listings']) {
      const answer = await raw(hub.app.url, path, { headers: { host: 'evil.example' } });
      expectEnvelope(answer, 421, 'unknown_host');
      expect(answer.body).not.toContain('costs');
    }
  });

  it('answers a call from another site in the envelope', async () => {
    const calls: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
    ];
    for (const headers of calls) {
      const answer = await raw(hub.app.url, '/hub/costs', { headers });
      expectEnvelope(answer, 403, 'cross_site');
    }
  });
});

/** Bytes on a socket of their own, and all the server wrote back before it closed. */
function sendBytes(text: string): Promise<string> {
  const { port } = new URL(hub.app.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.end(text);
  });
}

/** A status line, headers and a body, as written on the socket. */
function readAnswer(text: string) {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('a request Node cannot read', () => {
  it('is refused in the envelope, and the server answers the next one', async () => {
    const { host } = new URL(hub.app.url);
    const cases: [string, number, string][] = [
      ['NOT HTTP AT ALL\r\n\r\n', 400, 'malformed_request'],
      [`GET hub/costs HTTP/1.1\r\nhost: ${host}\r\n\r\n`, 400, 'malformed_request'],
      [
        `POST /hub/shows HTTP/1.1\r\nhost: ${host}\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n`,
        400,
        'malformed_request',
      ],
      [`GET /${'a'.repeat(20_000)} HTTP/1.1\r\nhost: ${host}\r\n\r\n`, 431, 'headers_too_large'],
      [
        `GET / HTTP/1.1\r\nhost: ${host}\r\nx-big: ${'b'.repeat(20_000)}\r\n\r\n`,
        431,
        'headers_too_large',
      ],
    ];
    for (const [bytes, status, code] of cases) {
      const answer = readAnswer(await sendBytes(bytes));
      expect(answer.status, bytes.slice(0, 40)).toBe(status);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
      expect(JSON.parse(answer.body)).toEqual({
        errors: expect.any(String),
        svc_error: { code, request_id: null },
      });
    }
    expect((await raw(hub.app.url, '/healthz')).status).toBe(200);
  });
});
