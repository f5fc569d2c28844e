import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LeakyBuckets } from '../../src/sandbox/platform/leaky-bucket';
import { ApiError, createClient, LeakyBucketPacer, type ResponseMeta } from '../../src/client';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { startFaultProxy } from './fault-proxy';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: 'none' });
});
afterAll(() => h.close());
afterEach(() => {
  vi.useRealTimers();
});

/** A fetch that counts how many requests are open at once. */
function countingFetch() {
  const stats = { open: 0, max: 0 };
  const wrapped: typeof fetch = async (input, init) => {
    stats.open++;
    stats.max = Math.max(stats.max, stats.open);
    try {
      return await fetch(input, init);
    } finally {
      stats.open--;
    }
  };
  return { stats, fetch: wrapped };
}

describe('pacing against the real bucket', () => {
  it('a burst of 50 never gets a 429 and takes at least the bucket minimum; a naive client does', async () => {
    const paced = await h.seller({ mode: 'live' });
    const naive = await h.seller({ mode: 'live' });
    const pacedStatuses: number[] = [];
    const naiveStatuses: number[] = [];
    const counting = countingFetch();
    const pacedClient = createClient({
      baseUrl: h.url,
      apiKey: paced.token,
      fetch: counting.fetch,
      pacing: { maxInFlight: 6 },
      onResponse: (m) => pacedStatuses.push(m.status),
    });
    const naiveClient = createClient({
      baseUrl: h.url,
      apiKey: naive.token,
      pacing: { enabled: false, maxInFlight: 50 },
      onResponse: (m) => naiveStatuses.push(m.status),
    });
    const started = performance.now();
    const [pacedResults, naiveResults] = await Promise.all([
      Promise.all(Array.from({ length: 50 }, () => pacedClient.ping())),
      Promise.all(Array.from({ length: 50 }, () => naiveClient.ping())),
    ]);
    const seconds = (performance.now() - started) / 1000;
    expect(pacedResults.every((r) => r.data.ok)).toBe(true);
    expect(naiveResults.every((r) => r.data.ok)).toBe(true);
    expect(pacedStatuses.filter((s) => s === 429)).toHaveLength(0);
    expect(pacedStatuses).toHaveLength(50);
    expect(naiveStatuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(counting.stats.max).toBeLessThanOrEqual(6);
    // (50 - 40) / 2 = 5 s is the least any client can take. How close to it the pacer keeps is
    // the simulated-clock test's to say: wall time here stretches with the machine's load.
    expect(seconds).toBeGreaterThan(4.5);
    expect(seconds).toBeLessThan(20);
    expect(pacedClient.transport.getState().counts.rateLimited).toBe(0);
  }, 30_000);

  it('learns a busy bucket from the first response before sending a burst', async () => {
    const { token } = await h.seller({ mode: 'test' });
    // Someone else used 15 of the 20 first.
    for (let i = 0; i < 15; i++) await h.api('/ping', { token });
    const statuses: number[] = [];
    const api = createClient({
      baseUrl: h.url,
      apiKey: token,
      onResponse: (m) => statuses.push(m.status),
    });
    await Promise.all(Array.from({ length: 8 }, () => api.ping()));
    expect(statuses).toHaveLength(8);
    expect(statuses.every((s) => s === 200)).toBe(true);
  }, 20_000);
});

describe('pacing model with a simulated clock', () => {
  it('sends 100 requests through a 40/2s bucket with no 429 in about 30 simulated seconds', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const buckets = new LeakyBuckets(true, () => Date.now());
    let refused = 0;
    // The server side of the bucket is the sandbox's own class, driven by the fake clock.
    const fakeFetch: typeof fetch = async () => {
      const charge = buckets.charge('key', 'live');
      if (!charge.allowed) refused++;
      return new Response(JSON.stringify({ locations: [] }), {
        status: charge.allowed ? 200 : 429,
        headers: {
          'content-type': 'application/json',
          'x-service-api-call-limit': `${charge.used}/${charge.capacity}`,
          'x-service-api-mode': 'live',
          ...(charge.allowed ? {} : { 'retry-after': String(charge.retryAfter) }),
        },
      });
    };
    const api = createClient({
      baseUrl: 'http://sim.test',
      apiKey: 'svc_live_sim',
      fetch: fakeFetch,
    });
    const start = Date.now();
    let done = 0;
    const all = Promise.all(
      Array.from({ length: 100 }, () => api.locations.list().then(() => done++)),
    );
    while (done < 100) await vi.advanceTimersByTimeAsync(50);
    await all;
    const seconds = (Date.now() - start) / 1000;
    expect(refused).toBe(0);
    expect(seconds).toBeGreaterThanOrEqual(29.5);
    expect(seconds).toBeLessThan(31.5);
  });
});

describe('retries on 429 and 503', () => {
  it('waits Retry-After after a 429 and goes on; 503s are retried within a budget', async () => {
    const { token } = await h.seller({ mode: 'live' });
    let n = 0;
    const proxy = await startFaultProxy(h.url, {
      decide: () => (n++ === 0 ? 'rate_limited' : n <= 3 ? 'unavailable' : 'pass'),
    });
    try {
      const metas: ResponseMeta[] = [];
      const api = createClient({
        baseUrl: proxy.url,
        apiKey: token,
        onResponse: (m) => metas.push(m),
      });
      const started = performance.now();
      const ping = await api.ping();
      const seconds = (performance.now() - started) / 1000;
      expect(ping.data.ok).toBe(true);
      expect(metas.map((m) => m.status)).toEqual([429, 503, 503, 200]);
      expect(metas.map((m) => m.attempt)).toEqual([1, 2, 3, 4]);
      expect(seconds).toBeGreaterThan(2.9); // 1 s after the 429, 1 s after each 503
      expect(api.transport.getState().counts).toMatchObject({ rateLimited: 1, retried: 3 });
    } finally {
      await proxy.close();
    }
  }, 20_000);

  it('gives up when the 503 budget is spent, with the code', async () => {
    const { token } = await h.seller({ mode: 'live' });
    const proxy = await startFaultProxy(h.url, { decide: () => 'unavailable' });
    try {
      const api = createClient({
        baseUrl: proxy.url,
        apiKey: token,
        retry: { unavailableBudgetSeconds: 2 },
      });
      const error = (await api.ping().catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(503);
      expect(error.code).toBe('partner_api_writes_disabled');
      expect(error.retryAfter).toBe(1);
      expect(proxy.log).toHaveLength(3);
    } finally {
      await proxy.close();
    }
  }, 20_000);

  it('fails at once on partner_api_disabled, with its code and Retry-After', async () => {
    const { token } = await h.seller({ mode: 'live' });
    await h.control('PUT', '/faults', { api_disabled: true });
    try {
      const statuses: number[] = [];
      const api = createClient({
        baseUrl: h.url,
        apiKey: token,
        onResponse: (m) => statuses.push(m.status),
      });
      const error = (await api.ping().catch((e: unknown) => e)) as ApiError;
      expect(error).toMatchObject({ status: 503, code: 'partner_api_disabled' });
      expect(error.retryAfter).toBeGreaterThan(0);
      expect(statuses).toEqual([503]);
    } finally {
      await h.control('PUT', '/faults', { api_disabled: false });
    }
  });

  it('retries a read after a dropped connection and a 500', async () => {
    const { token } = await h.seller({ mode: 'live' });
    let n = 0;
    const proxy = await startFaultProxy(h.url, {
      decide: () => (['drop_after', 'error_500', 'pass'] as const)[Math.min(n++, 2)]!,
    });
    try {
      const api = createClient({ baseUrl: proxy.url, apiKey: token });
      const locations = await api.locations.list();
      expect(locations.data).toHaveLength(2);
      expect(proxy.log.map((e) => e.fault)).toEqual(['drop_after', 'error_500', 'pass']);
    } finally {
      await proxy.close();
    }
  });
});

describe('pacer', () => {
  it('holds requests while the bucket is full and drops an aborted waiter', async () => {
    vi.useFakeTimers({ now: 0 });
    const pacer = new LeakyBucketPacer({ mode: 'live', maxInFlight: 10 });
    // Calibrate: the server says the bucket is at 39 of 40.
    (await pacer.acquire()).settle({ used: 39, capacity: 40, mode: 'live', status: 200 });
    // 39 + 1 leaves no slack: held for a moment (50 ms of drain).
    const firstPromise = pacer.acquire();
    await vi.advanceTimersByTimeAsync(60);
    (await firstPromise).settle({ used: 40, capacity: 40, mode: 'live', status: 200 });
    const controller = new AbortController();
    const held = pacer.acquire(controller.signal);
    expect(pacer.snapshot().waiting).toBe(1);
    controller.abort();
    await expect(held).rejects.toMatchObject({ code: 'aborted' });
    expect(pacer.snapshot().waiting).toBe(0);
    let granted = false;
    const later = pacer.acquire().then((t) => {
      granted = true;
      return t;
    });
    await vi.advanceTimersByTimeAsync(300);
    expect(granted).toBe(false);
    await vi.advanceTimersByTimeAsync(400);
    expect(granted).toBe(true);
    (await later).settle();
  });

  it('shares one bucket model between clients of the same API and key', () => {
    const a = createClient({ baseUrl: 'http://one.test', apiKey: 'svc_live_a' });
    const b = createClient({ baseUrl: 'http://one.test', apiKey: 'svc_live_a' });
    const c = createClient({ baseUrl: 'http://one.test', apiKey: 'svc_live_c' });
    expect(a.transport.pacer).toBe(b.transport.pacer);
    expect(a.transport.pacer).not.toBe(c.transport.pacer);
    expect(a.transport.pacer.snapshot()).toMatchObject({ mode: 'live', capacity: 40 });
  });
});
