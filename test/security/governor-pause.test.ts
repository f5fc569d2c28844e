import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { MAX_PAUSE_SECONDS } from '../../src/server/governor/key-governor';
import { startAppOver, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';

/**
 * "One 429 freezes every tab for a day": an upstream that answers 429 with `Retry-After: 86400`.
 * The server must not hold calls for a day: it answers every call at once, 503
 * `upstream_paused`, saying until when (the pause bounded to MAX_PAUSE_SECONDS, then a probe),
 * and sends nothing upstream meanwhile.
 */
let upstream: FakeUpstream;
let app: RunningAppServer;
const retryAfter = '86400';
const calls: string[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream((request, response) => {
    calls.push(`${request.method} ${request.url}`);
    response.writeHead(429, {
      'content-type': 'application/json',
      'retry-after': retryAfter,
      'x-service-api-call-limit': '40/40',
    });
    response.end(
      JSON.stringify({
        errors: 'Exceeded the rate limit',
        svc_error: { code: 'rate_limited', request_id: 'req_1' },
      }),
    );
  });
  app = await startAppOver(upstream.url, 'svc_live_PauseKey000000000000000001');
});

afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

interface PausedBody {
  errors: string;
  svc_error: {
    code: string;
    request_id: string | null;
    retry_after_seconds: number;
    until: string;
  };
}

describe('a Retry-After of a day', () => {
  it('answers at once, 503 upstream_paused with until when, and sends nothing upstream', async () => {
    const started = Date.now();
    const first = await fetch(`${app.url}/api/2026-07/listings.json?limit=5`, {
      signal: AbortSignal.timeout(5000),
    });
    // The 429 that asked for the pause is told as the pause.
    expect(first.status).toBe(503);
    expect(calls).toHaveLength(1);

    for (const path of ['/api/2026-07/orders.json', '/api/2026-07/ping']) {
      const answer = await fetch(`${app.url}${path}`, { signal: AbortSignal.timeout(5000) });
      expect(answer.status).toBe(503);
      const body = (await answer.json()) as PausedBody;
      expect(body.svc_error.code).toBe('upstream_paused');
      expect(body.errors).toMatch(
        /^The API asked us to wait 24 h; writes and reads are paused until \d{1,2}:\d{2} (AM|PM)/,
      );
      const retry = Number(answer.headers.get('retry-after'));
      expect(retry).toBeGreaterThan(MAX_PAUSE_SECONDS - 10);
      expect(retry).toBeLessThanOrEqual(MAX_PAUSE_SECONDS);
      expect(body.svc_error.retry_after_seconds).toBe(retry);
      expect(Date.parse(body.svc_error.until) - Date.now()).toBeGreaterThan(
        (MAX_PAUSE_SECONDS - 10) * 1000,
      );
    }
    const write = await fetch(`${app.url}/api/2026-07/listings/lst_1.json`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ listing: { price: '20.00' } }),
      signal: AbortSignal.timeout(5000),
    });
    expect(write.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(calls).toHaveLength(1);
    expect(app.hub.governor.snapshot().pausedUntil).toBeGreaterThan(
      Date.now() + (MAX_PAUSE_SECONDS - 10) * 1000,
    );
  });
});

describe('a short Retry-After', () => {
  it('is still honoured by holding the calls, not refusing them', async () => {
    const { KeyGovernor } = await import('../../src/server/governor/key-governor');
    let now = 1_000_000;
    const governor = new KeyGovernor('svc_live_x', { now: () => now });
    const ticket = await governor.acquire('interactive');
    governor.settle(ticket, 429, new Headers({ 'retry-after': '30' }));
    expect(governor.snapshot().pausedUntil).toBe(1_030_000);
    // A call waits (it is not refused) and goes once the 30 s have passed.
    const waiting = governor.acquire('interactive');
    let granted = false;
    void waiting.then(() => (granted = true));
    await vi.waitFor(() => expect(governor.snapshot().waiting).toBe(1));
    expect(granted).toBe(false);
    now += 60_000;
    // The pacer's timer runs on the real clock: another call makes it look again.
    void governor.acquire('background');
    await expect(waiting).resolves.toBeDefined();
  });

  it('past the bound, a call already waiting is refused at once too', async () => {
    const { KeyGovernor, UpstreamPausedError } =
      await import('../../src/server/governor/key-governor');
    const governor = new KeyGovernor('svc_live_x', { maxInFlight: 1 });
    const first = await governor.acquire('interactive');
    const waiting = governor.acquire('bulk');
    governor.settle(first, 429, new Headers({ 'retry-after': '3600' }));
    await expect(waiting).rejects.toBeInstanceOf(UpstreamPausedError);
    await expect(governor.acquire('interactive')).rejects.toBeInstanceOf(UpstreamPausedError);
  });
});
