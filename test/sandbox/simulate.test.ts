import { describe, expect, it, vi } from 'vitest';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { optionsFromEnv } from '../../src/sandbox/config';
import { startHarness } from '../support/sandbox-harness';
import { call, type Json } from './writes-helpers';

describe('SANDBOX_SIMULATE', () => {
  it('is read from the environment', () => {
    expect(
      optionsFromEnv({ SANDBOX_SIMULATE: '1', SANDBOX_SIMULATE_INTERVAL_MS: '250' }),
    ).toMatchObject({ simulate: true, simulateIntervalMs: 250 });
  });

  it('makes the demo marketplace move on its own: sales happen and orders advance', async () => {
    const h = await startHarness({
      seed: 'demo',
      demoListings: 120,
      rateLimit: false,
      simulate: true,
      // Four steps a second sell the 120 in about 85 s: at 25 a second they were gone in 15, before
      // a busy machine's first look at the orders had ended, and no sale came after it.
      simulateIntervalMs: 250,
    });
    try {
      const snapshot = async () => {
        const orders: Json[] = [];
        let path = '/orders.json?limit=250';
        for (;;) {
          const page = await h.api(path, { token: DEMO_LIVE_TOKEN });
          orders.push(...((await page.json()) as Json).orders);
          const next = /<([^>]+)>;\s*rel="next"/.exec(page.headers.get('link') ?? '');
          if (!next) break;
          path = next[1]!;
        }
        return new Map(orders.map((o) => [o.id as string, JSON.stringify(o)]));
      };
      const before = await snapshot();
      const live = await call(h, 'GET', '/listings.json?limit=250', DEMO_LIVE_TOKEN);
      expect((live.body.listings as Json[]).length).toBeGreaterThan(0);
      // The marketplace lives on its own: wait until it has both sold and moved orders on.
      const moves = async () => {
        const after = await snapshot();
        const added = [...after.keys()].filter((id) => !before.has(id));
        const changed = [...after.keys()].filter(
          (id) => before.has(id) && before.get(id) !== after.get(id),
        );
        return { added: added.length, changed: changed.length };
      };
      await vi.waitFor(
        async () => {
          const { added, changed } = await moves();
          expect(added + changed).toBeGreaterThan(3);
          expect(added).toBeGreaterThan(0);
          expect(changed).toBeGreaterThan(0);
        },
        // Each look walks every order (through Prism, on a busy machine): the bound ends the test.
        { timeout: 60_000, interval: 100 },
      );
    } finally {
      await h.close();
    }
    // After close nothing keeps running (the test process would otherwise hang or throw).
  }, 90_000);
});
