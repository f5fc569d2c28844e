import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { KeyGovernor, UpstreamPausedError } from '../../src/server/governor/key-governor';
import { startAppOver, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';

/**
 * "One upstream 429 with `Retry-After: 999999999` pauses every call until 2058, until a restart":
 * any pause the API asks for is kept ten minutes at most; then one call probes alone, and when
 * it is answered the others go; a probe that draws a long 429 again pauses again.
 */
const BOUND_SECONDS = 600;
let upstream: FakeUpstream;
let app: RunningAppServer;
const calls: string[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream((request, response) => {
    calls.push(`${request.method} ${request.url}`);
    response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '999999999' });
    response.end(
      JSON.stringify({
        errors: 'Slow down',
        svc_error: { code: 'rate_limited', request_id: null },
      }),
    );
  });
  app = await startAppOver(upstream.url, 'svc_live_PauseBoundKey00000000000001');
});

afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

describe('a Retry-After of 31 years', () => {
  it('pauses calls ten minutes at most, and says so', async () => {
    const first = await fetch(`${app.url}/api/2026-07/listings.json`, {
      signal: AbortSignal.timeout(5000),
    });
    expect(first.status).toBe(503);
    const next = await fetch(`${app.url}/api/2026-07/orders.json`, {
      signal: AbortSignal.timeout(5000),
    });
    expect(next.status).toBe(503);
    const body = (await next.json()) as { svc_error: { code: string; until: string } };
    expect(body.svc_error.code).toBe('upstream_paused');
    const retry = Number(next.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(BOUND_SECONDS - 10);
    expect(retry).toBeLessThanOrEqual(BOUND_SECONDS);
    expect(Date.parse(body.svc_error.until)).toBeLessThanOrEqual(Date.now() + BOUND_SECONDS * 1000);
    expect(app.hub.governor.snapshot().pausedUntil).toBeLessThanOrEqual(
      Date.now() + BOUND_SECONDS * 1000,
    );
    expect(calls).toHaveLength(1);
  });
});

/** A governor on a clock the test moves, with a bucket that has room (answers say `1/40`). */
function governorAt(start: number) {
  let now = start;
  const governor = new KeyGovernor('svc_live_x', { now: () => now, maxPauseSeconds: 120 });
  return { governor, advance: (ms: number) => (now += ms) };
}

const room = () => new Headers({ 'x-service-api-call-limit': '1/40' });
const longPause = () => new Headers({ 'retry-after': '999999999' });

describe('after the bound', () => {
  it('lets one probe through alone; once it is answered the others go', async () => {
    const { governor, advance } = governorAt(1_000_000);
    const first = await governor.acquire('interactive');
    governor.settle(first, 429, longPause());
    await expect(governor.acquire('interactive')).rejects.toBeInstanceOf(UpstreamPausedError);
    expect(governor.paused()?.until).toBe(1_000_000 + 120_000);

    advance(121_000);
    const probe = await governor.acquire('interactive');
    const others = [
      governor.acquire('interactive'),
      governor.acquire('background', undefined, 'b'),
    ];
    let granted = 0;
    for (const other of others) void other.then(() => granted++);
    // Both held behind the probe (the governor counts them waiting), neither granted.
    await vi.waitFor(() => expect(governor.snapshot()).toMatchObject({ waiting: 2, inFlight: 1 }));
    expect(granted).toBe(0);

    governor.settle(probe, 200, room());
    await Promise.all(others);
    expect(granted).toBe(2);
  });

  it('pauses again when the probe draws another long 429, refusing those that waited', async () => {
    const { governor, advance } = governorAt(5_000_000);
    const first = await governor.acquire('interactive');
    governor.settle(first, 429, longPause());
    advance(121_000);
    const probe = await governor.acquire('interactive');
    const waiting = governor.acquire('interactive', undefined, 'b');
    governor.settle(probe, 429, longPause());
    await expect(waiting).rejects.toBeInstanceOf(UpstreamPausedError);
    expect(governor.paused()?.until).toBe(5_000_000 + 121_000 + 120_000);
  });

  it('lets the next call probe when the probe got no answer at all', async () => {
    const { governor, advance } = governorAt(9_000_000);
    const first = await governor.acquire('interactive');
    governor.settle(first, 429, longPause());
    advance(121_000);
    const probe = await governor.acquire('interactive');
    const second = governor.acquire('interactive');
    const third = governor.acquire('interactive');
    let thirdGranted = false;
    void third.then(() => (thirdGranted = true));
    governor.settle(probe, 0, null);
    const secondProbe = await second;
    await vi.waitFor(() => expect(governor.snapshot()).toMatchObject({ waiting: 1, inFlight: 1 }));
    expect(thirdGranted).toBe(false);
    governor.settle(secondProbe, 200, room());
    await expect(third).resolves.toBeDefined();
  });
});
