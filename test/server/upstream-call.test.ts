import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callUpstream, UpstreamError } from '../../src/server/upstream-call';

let base = '';
const seen: { method?: string; key?: string; body: string }[] = [];
const upstream = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    seen.push({ method: req.method, key: String(req.headers['x-service-access-token']), body });
    if (req.url === '/packed') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ packed: true })));
    } else if (req.url === '/silent') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":'); // and nothing more
    } else if (req.url === '/hung') {
      // No answer at all.
    } else if (req.url === '/deflate-bomb' || req.url === '/br-bomb') {
      const zeros = Buffer.alloc(8 * 1024 * 1024);
      const deflate = req.url === '/deflate-bomb';
      res.writeHead(200, { 'content-encoding': deflate ? 'deflate' : 'br' });
      res.end(deflate ? deflateSync(zeros) : brotliCompressSync(zeros));
    } else if (req.url === '/moved') {
      res.writeHead(302, { location: '/elsewhere' });
      res.end();
    } else {
      res.writeHead(201, {
        'content-type': 'application/json',
        link: '<http://x/next>; rel="next"',
      });
      res.end(JSON.stringify({ echo: body }));
    }
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(() => {
  upstream.closeAllConnections();
  return new Promise((resolve) => upstream.close(resolve));
});

describe('callUpstream', () => {
  it('sends the method, headers and body, and reads the answer whole with its headers', async () => {
    const body = new TextEncoder().encode('{"listing":{"price":"12.00"}}').buffer as ArrayBuffer;
    const answer = await callUpstream(`${base}/write`, {
      method: 'POST',
      headers: { 'x-service-access-token': 'svc_live_k', 'content-type': 'application/json' },
      body,
    });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('link')).toBe('<http://x/next>; rel="next"');
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual({
      echo: '{"listing":{"price":"12.00"}}',
    });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', key: 'svc_live_k' });
  });

  it('unpacks a gzipped answer and does not follow a redirect', async () => {
    const packed = await callUpstream(`${base}/packed`, { method: 'GET', headers: {} });
    expect(packed.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse(packed.body.toString('utf8'))).toEqual({ packed: true });
    const moved = await callUpstream(`${base}/moved`, { method: 'GET', headers: {} });
    expect(moved.status).toBe(302);
    expect(moved.headers.get('location')).toBe('/elsewhere');
  });

  it('fails when the upstream stops answering mid-body for longer than the silence allowed', async () => {
    await expect(
      callUpstream(`${base}/silent`, { method: 'GET', headers: {} }, { silenceMs: 200 }),
    ).rejects.toThrow(/silent for 200 ms/);
  });

  it('gives up a call with no answer at the headers deadline', async () => {
    const started = Date.now();
    const call = callUpstream(`${base}/hung`, { method: 'GET', headers: {} }, { headersMs: 150 });
    await expect(call).rejects.toBeInstanceOf(UpstreamError);
    await expect(call).rejects.toMatchObject({ kind: 'timeout' });
    await expect(call).rejects.toThrow(/no answer within 150 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('stops unpacking deflate and brotli bodies at the cap', async () => {
    for (const path of ['/deflate-bomb', '/br-bomb']) {
      const call = callUpstream(
        `${base}${path}`,
        { method: 'GET', headers: {} },
        {
          maxBodyBytes: 64 * 1024,
        },
      );
      await expect(call).rejects.toBeInstanceOf(UpstreamError);
      await expect(call).rejects.toMatchObject({ kind: 'too_large' });
    }
    // Under the cap, the same body is read whole.
    const whole = await callUpstream(`${base}/deflate-bomb`, { method: 'GET', headers: {} });
    expect(whole.body.length).toBe(8 * 1024 * 1024);
  });

  it('fails when the upstream cannot be reached', async () => {
    await expect(
      callUpstream('http://127.0.0.1:1/ping', { method: 'GET', headers: {} }),
    ).rejects.toThrow();
  });
});
