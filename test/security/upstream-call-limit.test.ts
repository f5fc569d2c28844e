import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { startAppOver, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';

/**
 * An upstream whose `X-Service-Api-Call-Limit` says more was used than its bucket holds
 * (`999999999/40`): the governor's model of the bucket must stay within the bucket, so the next
 * call waits at most the time a full bucket takes to leak one call, not the billions of seconds
 * the number says (every call of every tab given up at its deadline, a timer spinning meanwhile).
 */
let upstream: FakeUpstream;
let app: RunningAppServer;
const calls: string[] = [];
const used = ['999999999/40', `${'9'.repeat(400)}/${'9'.repeat(400)}`];

beforeAll(async () => {
  upstream = await startFakeUpstream((request, response) => {
    calls.push(`${request.method} ${request.url}`);
    response.writeHead(200, {
      'content-type': 'application/json',
      'x-service-api-call-limit': used[calls.length - 1] ?? '1/40',
      'x-service-api-mode': 'live',
    });
    response.end(JSON.stringify({ ping: { ok: true } }));
  });
  // A call waits its turn at most 5 s, so a jammed governor fails the test quickly.
  app = await startAppOver(upstream.url, 'svc_live_CallLimitKey00000000000001', {
    proxy: { upstreamLimits: { headersMs: 5_000 } },
  });
});

afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

const ping = () => fetch(`${app.url}/api/2026-07/ping`, { signal: AbortSignal.timeout(10_000) });

describe('a call-limit header past its own capacity', () => {
  it('is read as a full bucket: the next calls go within a second or two', async () => {
    expect((await ping()).status).toBe(200);
    for (const round of [2, 3]) {
      const started = Date.now();
      const answer = await ping();
      expect(answer.status).toBe(200);
      expect(calls).toHaveLength(round);
      expect(Date.now() - started).toBeLessThan(3_000);
      // The model never holds more than the bucket can.
      const bucket = app.hub.governor.snapshot();
      expect(Number.isFinite(bucket.capacity)).toBe(true);
      expect(bucket.level).toBeLessThanOrEqual(bucket.capacity + 1);
    }
  });
});
