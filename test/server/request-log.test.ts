import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { serverLog } from '../../src/server/log';
import { startAppOver, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { raw } from '../support/raw-http';

/** The log a self-hoster reads: one line per request, the path without its query, no secret. */
let upstream: FakeUpstream;
let app: RunningAppServer;

beforeAll(async () => {
  upstream = await startFakeUpstream((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"listings":[]}');
  });
  app = await startAppOver(upstream.url, 'svc_live_SecretKeyNeverLogged');
});

afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

describe('the request log', () => {
  it('writes one line per request: method, path without the query, status, time', async () => {
    const info = vi.spyOn(serverLog, 'info');
    try {
      const answer = await raw(app.url, '/api/2026-07/listings.json?page_info=secret-cursor', {
        headers: { cookie: 'slabdesk_session=secret-session' },
      });
      expect(answer.status).toBe(200);
      await raw(app.url, '/healthz');
      await vi.waitFor(() => expect(info).toHaveBeenCalledTimes(2));
      const lines = info.mock.calls.map((call) => JSON.stringify(call));
      expect(info.mock.calls[0]![0]).toMatchObject({
        method: 'GET',
        path: '/api/2026-07/listings.json',
        status: 200,
      });
      expect(info.mock.calls[1]![1]).toMatch(/^GET \/healthz 200 \d+ ms$/);
      for (const line of lines) {
        expect(line).not.toContain('secret-cursor');
        expect(line).not.toContain('secret-session');
        expect(line).not.toContain('SecretKeyNeverLogged');
      }
    } finally {
      info.mockRestore();
    }
  });
});
