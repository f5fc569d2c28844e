import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Replica } from '../../src/server/replica/replica';
import { ReplicaStore } from '../../src/server/replica/replica-store';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { startHarness, type Harness } from '../support/sandbox-harness';

/**
 * How often the replica reads the marketplace on its own: often with no webhook registered, only
 * as a safety net with one (deliveries keep it current), whatever the number of tabs.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: 'demo', demoListings: 20, rateLimit: false });
});
afterAll(() => h?.close());

const replicaOf = (webhooks: boolean) =>
  new Replica({
    store: new ReplicaStore(':memory:'),
    upstream: { baseUrl: h.url, apiKey: DEMO_LIVE_TOKEN },
    governor: undefined,
    webhooks: () => webhooks,
    reconcileMs: 100,
    safetyNetMs: 60_000,
  });

describe('the reconciliation’s interval', () => {
  it('is the safety net’s with a webhook registered, the setting’s without', async () => {
    const polling = replicaOf(false);
    const delivered = replicaOf(true);
    try {
      polling.start();
      delivered.start();
      await delivered.ready();
      // Three rounds of the one with no webhook: the one with a webhook has had none since its fill.
      const from = polling.status().rounds;
      await vi.waitFor(() => expect(polling.status().rounds).toBeGreaterThanOrEqual(from + 3), {
        timeout: 20_000,
        interval: 50,
      });
      expect(delivered.status()).toMatchObject({ rounds: 0, fills: 1 });
    } finally {
      await polling.close();
      await delivered.close();
    }
  });
});
