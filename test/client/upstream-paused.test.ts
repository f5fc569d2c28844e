import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createClient, type ResponseMeta } from '../../src/client';
import type { RunningAppServer } from '../../src/server/app-server';
import { startAppOver, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';

/**
 * The client behind the dashboard's server when the API asks for a pause of a day: the server
 * holds it ten minutes at most and answers 503 `upstream_paused` at once, and the client takes it as final (no retry loop, no
 * wait), with the end of the pause in its own clock for the page to show.
 */
let upstream: FakeUpstream;
let app: RunningAppServer;
let upstreamCalls = 0;

beforeAll(async () => {
  upstream = await startFakeUpstream((_request, response) => {
    upstreamCalls++;
    response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '86400' });
    response.end('{"errors":"Exceeded","svc_error":{"code":"rate_limited","request_id":"r1"}}');
  });
  app = await startAppOver(upstream.url, 'svc_live_Paused00000000001', {}, '');
});

afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

describe('upstream_paused', () => {
  it('fails at once, once, with the message and when the pause ends', async () => {
    const metas: ResponseMeta[] = [];
    const api = createClient({
      baseUrl: `${app.url}/api`,
      // As the page's client: no pacing of its own, behind the server's governor.
      pacing: { enabled: false, maxInFlight: 6 },
      onResponse: (meta) => metas.push(meta),
    });
    for (let i = 0; i < 2; i++) {
      const started = Date.now();
      const error = (await api.ping().catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 503, code: 'upstream_paused' });
      expect(error.message).toMatch(
        /^The API asked us to wait 24 h; writes and reads are paused until \d{1,2}:\d{2}/,
      );
      // The server holds a pause ten minutes at most, then lets one call probe (issue 41).
      expect(error.pausedUntil! - Date.now()).toBeGreaterThan(500_000);
      expect(error.pausedUntil! - Date.now()).toBeLessThanOrEqual(600_000);
      expect(error.retryAfter).toBeLessThanOrEqual(600);
      expect(Date.now() - started).toBeLessThan(2000);
    }
    // One request per call: none retried.
    expect(metas).toHaveLength(2);
    expect(api.transport.getState().counts.retried).toBe(0);
    expect(upstreamCalls).toBe(1);
  });

  it('a 429 asking for more than a minute is not waited out either', async () => {
    const direct = createClient({
      baseUrl: upstream.url,
      apiKey: 'svc_live_Paused00000000001',
      pacing: { enabled: false, maxInFlight: 6 },
    });
    const started = Date.now();
    const error = (await direct.ping().catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 86_400 });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("reads the server's own errors, whose request id is null, as API errors", () => {
    const error = ApiError.fromResponse(403, new Headers(), {
      errors: 'Sign in to continue.',
      svc_error: { code: 'sign_in_required', request_id: null },
    });
    expect(error).toMatchObject({ code: 'sign_in_required', message: 'Sign in to continue.' });
    expect(error.requestId).toBeUndefined();
  });
});
