import type { ServerResponse } from 'node:http';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { startAppOver, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';

/**
 * "An upstream gzip answer of 1 MB inflating to 1 GiB is inflated and forwarded whole" and "a
 * 400 MB upstream answer is buffered whole": the server reads an upstream body as it streams,
 * counted after unpacking, and stops at the cap (low here, an option): the browser gets 502
 * `upstream_too_large`, and neither the inflated body nor the huge one is ever held.
 */
const CAP = 1024 * 1024;
const MIB = 1024 * 1024;
const BOMB_INFLATED = 256 * MIB;
const HUGE = 256 * MIB;
let upstream: FakeUpstream;
let app: RunningAppServer;
let bomb: Buffer;
/** Bytes of the huge plain bodies the upstream managed to write before the server hung up. */
const written = { declared: 0, chunked: 0 };

/** Packs `bytes` zeros without ever holding them: a small body that inflates to a huge one. */
async function gzipBomb(bytes: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => parts.push(chunk));
  const zeros = Buffer.alloc(MIB);
  for (let sent = 0; sent < bytes; sent += zeros.length) {
    if (!gzip.write(zeros)) await once(gzip, 'drain');
  }
  gzip.end();
  await once(gzip, 'end');
  return Buffer.concat(parts);
}

/** Writes `total` bytes of JSON-ish filler as fast as the reader takes them, counting them. */
async function pour(response: ServerResponse, total: number, count: (n: number) => void) {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let closed = false;
  response.on('close', () => (closed = true));
  response.write('{"listings":[');
  for (let sent = 0; sent < total && !closed; sent += chunk.length) {
    count(chunk.length);
    if (!response.write(chunk)) {
      await Promise.race([once(response, 'drain'), once(response, 'close')]);
    }
  }
  if (!closed) response.end(']}');
}

beforeAll(async () => {
  bomb = await gzipBomb(BOMB_INFLATED);
  upstream = await startFakeUpstream((request, response) => {
    const url = request.url ?? '';
    if (url.includes('/bomb')) {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': String(bomb.length),
      });
      response.end(bomb);
    } else if (url.includes('/huge-declared')) {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(HUGE + 15),
      });
      void pour(response, HUGE, (n) => (written.declared += n));
    } else if (url.includes('/huge-chunked')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      void pour(response, HUGE, (n) => (written.chunked += n));
    } else {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ listings: [{ id: 'lst_1' }] }));
    }
  });
  app = await startAppOver(upstream.url, 'svc_live_BodyCapKey0000000000000001', {
    proxy: { upstreamLimits: { maxBodyBytes: CAP } },
  });
});

afterAll(async () => {
  await app?.close();
  upstream?.server.closeAllConnections();
  await upstream?.close();
});

async function codeOf(answer: Response): Promise<string | undefined> {
  return ((await answer.json()) as { svc_error?: { code?: string } }).svc_error?.code;
}

const rssMib = () => process.memoryUsage().rss / MIB;

describe('a gzip bomb from the upstream', () => {
  it('is refused 502 upstream_too_large without inflating it', async () => {
    expect(bomb.length).toBeLessThan(2 * MIB);
    const before = rssMib();
    const answer = await fetch(`${app.url}/api/2026-07/listings/bomb.json`, {
      signal: AbortSignal.timeout(20_000),
    });
    expect(answer.status).toBe(502);
    expect(await codeOf(answer)).toBe('upstream_too_large');
    // Inflated whole it would have taken the bomb's full size, and again as the answer.
    expect(rssMib() - before).toBeLessThan(BOMB_INFLATED / MIB / 4);
  }, 30_000);
});

describe('a huge plain answer from the upstream', () => {
  it('is refused before reading when its Content-Length is over the cap', async () => {
    const answer = await fetch(`${app.url}/api/2026-07/listings/huge-declared.json`, {
      signal: AbortSignal.timeout(20_000),
    });
    expect(answer.status).toBe(502);
    expect(await codeOf(answer)).toBe('upstream_too_large');
    // The upstream got no further than what the sockets' buffers took.
    expect(written.declared).toBeLessThan(HUGE / 8);
  }, 30_000);

  it('is read no further than the cap when it comes chunked', async () => {
    const before = rssMib();
    const answer = await fetch(`${app.url}/api/2026-07/listings/huge-chunked.json`, {
      signal: AbortSignal.timeout(20_000),
    });
    expect(answer.status).toBe(502);
    expect(await codeOf(answer)).toBe('upstream_too_large');
    expect(written.chunked).toBeLessThan(HUGE / 8);
    expect(rssMib() - before).toBeLessThan(HUGE / MIB / 4);
  }, 30_000);

  it('still forwards an answer under the cap', async () => {
    const answer = await fetch(`${app.url}/api/2026-07/listings.json`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ listings: [{ id: 'lst_1' }] });
  });
});
