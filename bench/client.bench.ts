import { DEMO_SELLER_ID, startSandbox, type RunningSandbox } from '../src/sandbox';
import { createClient, type ListingWrite, type ResponseMeta } from '../src/client';
import { listingWriteQueue } from '../src/client/listing-write-queue';
import { round, type Bench } from './bench-api';
import { sized } from './quick';

/** A fresh live key for the demo seller: an empty bucket of its own. */
async function freshLiveKey(sandbox: RunningSandbox): Promise<string> {
  const response = await fetch(`${sandbox.url}/_sandbox/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      seller_id: DEMO_SELLER_ID,
      mode: 'live',
      scopes: ['read_listings', 'write_listings'],
    }),
  });
  const body = (await response.json()) as { key: { token: string } };
  return body.key.token;
}

/** Runs 120 price edits through a write queue and times them; counts the 429 responses. */
async function edits120(
  sandbox: RunningSandbox,
  ids: readonly string[],
  naive: boolean,
): Promise<{ seconds: number; rateLimited: number; failed: number }> {
  const token = await freshLiveKey(sandbox);
  let rateLimited = 0;
  const api = createClient({
    baseUrl: sandbox.url,
    apiKey: token,
    onResponse: (meta: ResponseMeta) => {
      if (meta.status === 429) rateLimited++;
    },
    // The naive client: no bucket model, the same concurrency, and a retry on 429 only.
    ...(naive
      ? {
          pacing: { enabled: false, maxInFlight: 8 },
          retry: { rateLimited: 1000, transient: 0, unavailableBudgetSeconds: 0 },
        }
      : { pacing: { maxInFlight: 8 } }),
  });
  const queue = listingWriteQueue(api, { concurrency: 8 });
  const writes: ListingWrite[] = ids.map((id, i) => ({
    kind: 'update',
    id,
    patch: { price: `${(naive ? 300 : 200) + i}.00` },
  }));
  const started = performance.now();
  queue.addWrites(writes);
  const items = await queue.settled();
  const seconds = (performance.now() - started) / 1000;
  return { seconds, rateLimited, failed: items.filter((i) => i.status !== 'done').length };
}

/** The catalogue and the edits (a quick run: enough to pass the bucket's 40 at once). */
const LISTINGS = sized(10_000, 600);
const EDITS = sized(120, 44);

const bench: Bench = {
  figures: [
    'client.cold_load_10k.requests',
    'client.cold_load_10k.seconds',
    'client.refresh_after_5_edits.requests',
    'client.edits_120.ratio',
    'client.edits_120.429s',
    'client.edits_120_naive.ratio',
    'client.edits_120_naive.429s',
  ],
  async run(report) {
    // The bucket is ON: these figures measure the client's pacing against the real limiter.
    const sandbox = await startSandbox({
      port: 0,
      db: ':memory:',
      seed: 'demo',
      demoListings: LISTINGS,
    });
    try {
      let requests = 0;
      const api = createClient({
        baseUrl: sandbox.url,
        apiKey: await freshLiveKey(sandbox),
        onResponse: () => requests++,
      });

      // Cold load of the catalogue, as the dashboard does it: /listings.json, 250 per page.
      const started = performance.now();
      const catalogue = await api.listings.loadAll();
      const seconds = (performance.now() - started) / 1000;
      if (catalogue.rows.length < LISTINGS) {
        throw new Error(`expected ${LISTINGS} listings, loaded ${catalogue.rows.length}`);
      }
      report('client.cold_load_10k.requests', requests);
      report('client.cold_load_10k.seconds', round(seconds));

      // Five edits through the write API, then an incremental refresh.
      const active = catalogue.rows.filter((p) => p.status === 'active').map((p) => p.id);
      for (const [i, id] of active.slice(0, 5).entries()) {
        await api.listings.update(id, { price: `${150 + i}.00` });
      }
      requests = 0;
      const refreshed = await api.listings.refresh(catalogue);
      const edited = new Set(active.slice(0, 5));
      const seen = refreshed.changed.filter((p) => edited.has(p.id)).length;
      if (seen !== 5) throw new Error(`the refresh saw ${seen} of the 5 edits`);
      report('client.refresh_after_5_edits.requests', requests);

      // 120 edits from an empty bucket: the floor is (120 - 40) / 2 = 40 s.
      const floor = (EDITS - 40) / 2;
      const paced = await edits120(sandbox, active.slice(10, 10 + EDITS), false);
      if (paced.failed > 0) throw new Error(`${paced.failed} paced edits failed`);
      report('client.edits_120.ratio', round(paced.seconds / floor, 3));
      report('client.edits_120.429s', paced.rateLimited);

      const naive = await edits120(sandbox, active.slice(10 + EDITS, 10 + 2 * EDITS), true);
      if (naive.failed > 0) throw new Error(`${naive.failed} naive edits failed`);
      report('client.edits_120_naive.ratio', round(naive.seconds / floor, 3));
      report('client.edits_120_naive.429s', naive.rateLimited);
    } finally {
      await sandbox.close();
    }
  },
};

export default bench;
