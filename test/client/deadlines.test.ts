import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { ApiError, createClient, DEFAULT_DEADLINE_MS, type ClientOptions } from '../../src/client';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { startFaultProxy } from './fault-proxy';

/**
 * How requests end when the upstream will not answer well: every one ends, with data or with a
 * clear error, within its deadline. These establish the default behaviour the pages rely on.
 */

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: 'demo' });
});
afterAll(() => h.close());

const client = (baseUrl: string, options: ClientOptions = {}) =>
  createClient({ baseUrl, apiKey: DEMO_LIVE_TOKEN, pacing: {}, ...options });

async function timed<T>(work: () => Promise<T>): Promise<{ value: T | unknown; ms: number }> {
  const started = Date.now();
  const value = await work().catch((error: unknown) => error);
  return { value, ms: Date.now() - started };
}

describe('deadlines (the defaults)', () => {
  it.concurrent(
    'a 429 storm without Retry-After ends as rate_limited after 10 retries, about 1 s apart',
    async () => {
      const proxy = await startFaultProxy(h.url, { decide: () => 'rate_limited_bare' });
      try {
        const { value, ms } = await timed(() => client(proxy.url).locations.list());
        expect(value).toBeInstanceOf(ApiError);
        expect(value).toMatchObject({ code: 'rate_limited', status: 429, retryAfter: undefined });
        // The first try and 10 retries, each held by the bucket model about a second.
        expect(proxy.log).toHaveLength(11);
        expect(ms).toBeGreaterThan(5_000);
        expect(ms).toBeLessThan(25_000);
      } finally {
        await proxy.close();
      }
    },
    40_000,
  );

  it.concurrent(
    'an upstream that answers after 12 s is waited for: one try, the data, no timeout',
    async () => {
      const proxy = await startFaultProxy(h.url, { delayMs: () => 12_000 });
      try {
        const { value, ms } = await timed(() => client(proxy.url).locations.list());
        expect(value).toMatchObject({ data: [expect.anything(), expect.anything()] });
        expect(proxy.log).toHaveLength(1);
        expect(ms).toBeGreaterThanOrEqual(12_000);
        expect(ms).toBeLessThan(DEFAULT_DEADLINE_MS);
      } finally {
        await proxy.close();
      }
    },
    40_000,
  );

  it.concurrent('an upstream that never answers ends at the deadline, naming it', async () => {
    const proxy = await startFaultProxy(h.url, { decide: () => 'stall_after' });
    try {
      const { value, ms } = await timed(() =>
        client(proxy.url, { deadlineMs: 2_500, timeoutMs: 1_000 }).locations.list(),
      );
      expect(value).toMatchObject({ code: 'deadline_exceeded', status: 0 });
      expect((value as ApiError).message).toMatch(
        /No answer within 2\.5 s: the last try failed with timeout/,
      );
      expect(ms).toBeGreaterThanOrEqual(2_400);
      expect(ms).toBeLessThan(4_000);
      // Retried while there was time, then stopped: no request after the deadline.
      expect(proxy.log.length).toBeGreaterThanOrEqual(2);
    } finally {
      await proxy.close();
    }
  });

  it.concurrent('a deadline cuts a retry wait short instead of sleeping past it', async () => {
    const proxy = await startFaultProxy(h.url, { decide: () => 'rate_limited', retryAfter: 30 });
    try {
      const { value, ms } = await timed(() =>
        client(proxy.url, { deadlineMs: 1_500 }).locations.list(),
      );
      expect(value).toMatchObject({ code: 'deadline_exceeded', retryAfter: 30 });
      expect(ms).toBeLessThan(3_000);
      expect(proxy.log).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });
});
