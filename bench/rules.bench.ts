import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_LIVE_TOKEN, startSandbox, type RunningSandbox } from '../src/sandbox';
import { LeakyBuckets } from '../src/sandbox/platform/leaky-bucket';
import { startAppServer, type PageSource, type RunningAppServer } from '../src/server/app-server';
import { median, round, type Bench } from './bench-api';
import { QUICK, sized } from './quick';

/**
 * Pricing rules at a dealer's size: a preview over 10,000 listings (read from the marketplace and
 * planned), a run of 300 writes against the live bucket's floor with no 429, and a seller's price
 * edit sent through the proxy while that run goes (the click's request to its saved answer).
 */
const PREVIEW_LISTINGS = sized(10_000, 1_000);
const RUN_WRITES = sized(300, 50);
const RUNS = sized(3, 1);

const MARKDOWN = {
  name: 'Bench markdown',
  scope: { status: 'active' },
  action: {
    kind: 'markdown',
    afterDays: 0,
    step: { kind: 'percent', percent: 5 },
    everyDays: 7,
    ending: 'cent',
  },
  floor: { platformFeePercent: 12, margin: { kind: 'percent', percent: 10 }, fixed: '10.00' },
  caps: { maxListings: 10_000 },
  skipEditedWithinDays: 0,
};

/** No page is served: only the rules' routes and the proxy are measured. */
const noPages = async (): Promise<PageSource> => ({
  development: false,
  register: async () => {},
  pageHtml: async () => null,
});

async function server(sandbox: RunningSandbox, apiKey: string): Promise<RunningAppServer> {
  return startAppServer(
    { upstream: { baseUrl: sandbox.url, apiKey }, port: 0, activity: { path: ':memory:' } },
    noPages,
  );
}

async function hub<T>(app: RunningAppServer, method: string, path: string, body?: unknown) {
  const response = await fetch(`${app.url}/hub/rules${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

async function control<T>(sandbox: RunningSandbox, method: string, path: string, body?: unknown) {
  const response = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.json()) as T;
}

async function previewMs(): Promise<{ firstMs: number; medianMs: number; fillMs: number }> {
  // Seeding 10,000 listings takes a while: the store is kept in the temporary folder for later runs.
  const db = join(tmpdir(), `slabdesk-rules-${PREVIEW_LISTINGS}-v1.db`);
  if (!existsSync(db)) console.log(`(seeding ${PREVIEW_LISTINGS} demo listings into ${db} …)`);
  const sandbox = await startSandbox({
    port: 0,
    db,
    seed: 'demo',
    demoListings: PREVIEW_LISTINGS,
  });
  // The reads' cost is ours to measure, not the bucket's wait (as SANDBOX_RATE_LIMIT=off).
  sandbox.context.buckets = new LeakyBuckets(false);
  const fillAt = performance.now();
  const app = await server(sandbox, DEMO_LIVE_TOKEN);
  try {
    // The hub's replica is filled once (a walk at background priority); every preview reads it,
    // after one updated_at_min catch-up when no webhook is registered (as here).
    await app.replica.ready();
    const fillMs = performance.now() - fillAt;
    const { rule } = await hub<{ rule: { id: number } }>(app, 'POST', '', MARKDOWN);
    const coldAt = performance.now();
    await hub(app, 'POST', '/preview', { ruleId: rule.id });
    const firstMs = performance.now() - coldAt;
    console.log(
      `(replica filled in ${Math.round(fillMs)} ms; first preview from the click: ${Math.round(firstMs)} ms)`,
    );
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const preview = await hub<{ read: number; items: unknown[] }>(app, 'POST', '/preview', {
        ruleId: rule.id,
      });
      times.push(performance.now() - started);
      if (preview.read < PREVIEW_LISTINGS) throw new Error(`read only ${preview.read} listings`);
    }
    console.log(`(preview runs: ${times.map(Math.round).join(', ')} ms)`);
    return { firstMs, medianMs: median(times), fillMs };
  } finally {
    await app.close();
    await sandbox.close();
  }
}

/** Listings of a fresh seller, each on its own card with a cost, made with keys of their own. */
async function listingsFor(sandbox: RunningSandbox, sellerId: string, count: number) {
  let token = '';
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 30 === 0) {
      token = (
        await control<{ key: { token: string } }>(sandbox, 'POST', '/keys', {
          seller_id: sellerId,
          mode: 'live',
          scopes: ['write_listings', 'read_listings'],
        })
      ).key.token;
    }
    const item = await control<{ inventory_item: { id: string } }>(
      sandbox,
      'POST',
      '/inventory_items',
      {
        seller_id: sellerId,
        cert_number: `B${i}x${Date.now() % 100000}`,
        grader: 'PSA',
        cost: '40.00',
      },
    );
    const created = await fetch(`${sandbox.url}/2026-07/listings.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Service-Access-Token': token },
      body: JSON.stringify({
        listing: { inventory_item_id: item.inventory_item.id, price: `${200 + i}.00` },
      }),
    });
    ids.push(((await created.json()) as { listing: { id: string } }).listing.id);
  }
  return ids;
}

async function runFigures(report: (name: string, value: number) => void) {
  const sandbox = await startSandbox({ port: 0, db: ':memory:', seed: 'none' });
  const seller = await control<{ seller: { id: string } }>(sandbox, 'POST', '/sellers', {});
  const ids = await listingsFor(sandbox, seller.seller.id, RUN_WRITES);
  const key = await control<{ key: { token: string } }>(sandbox, 'POST', '/keys', {
    seller_id: seller.seller.id,
    mode: 'live',
    scopes: ['write_listings', 'read_listings', 'read_inventory'],
  });
  const app = await server(sandbox, key.key.token);
  try {
    const { rule } = await hub<{ rule: { id: number } }>(app, 'POST', '', MARKDOWN);
    const started = performance.now();
    const { run } = await hub<{ run: { id: number } }>(app, 'POST', `/${rule.id}/run`);
    // A seller's price edit while the run goes, once it is well under way.
    let clickMs = NaN;
    const click = (async () => {
      for (;;) {
        const detail = await hub<{ run: { counts: { changed: number } } }>(
          app,
          'GET',
          `/runs/${run.id}`,
        );
        if (detail.run.counts.changed >= Math.min(60, RUN_WRITES / 2)) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const target = ids[ids.length - 1]!;
      const at = performance.now();
      const response = await fetch(`${app.url}/api/2026-07/listings/${target}.json`, {
        method: 'PUT',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': `bench-click-${Date.now()}`,
        },
        body: JSON.stringify({ listing: { price: '999.00' } }),
      });
      await response.text();
      if (response.status !== 200) throw new Error(`the seller's edit answered ${response.status}`);
      clickMs = performance.now() - at;
    })();
    await app.rules!.runner.settled(run.id);
    for (;;) {
      const detail = await hub<{ run: { status: string } }>(app, 'GET', `/runs/${run.id}`);
      if (detail.run.status === 'done' || detail.run.status === 'stopped') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seconds = (performance.now() - started) / 1000;
    await click;
    const detail = await hub<{
      run: { counts: { changed: number; skipped: number; failed: number } };
    }>(app, 'GET', `/runs/${run.id}`);
    // Every call on the key's bucket, as the governor counted their answers: the replica's fill,
    // each write, and the seller's edit; the live bucket holds 40 and leaks 2 a second.
    const calls = app.hub.governor.snapshot().answered;
    const minimum = Math.max(1, (calls - 40) / 2);
    console.log(
      `(run: ${detail.run.counts.changed} changed, ${detail.run.counts.skipped} skipped, ${detail.run.counts.failed} failed in ${round(seconds, 1)} s; floor ${minimum} s)`,
    );
    report('rules.run_300.ratio', round(seconds / minimum, 3));
    report('rules.run_300.429s', app.hub.governor.snapshot().rateLimited);
    report('rules.click_during_run_ms', round(clickMs, 0));
  } finally {
    await app.close();
    await sandbox.close();
  }
}

const bench: Bench = {
  figures: [
    'rules.preview_10k_ms',
    'rules.preview_10k_first_ms',
    'rules.replica_fill_10k_ms',
    'rules.run_300.ratio',
    'rules.run_300.429s',
    'rules.click_during_run_ms',
  ],
  async run(report) {
    const preview = await previewMs();
    report('rules.preview_10k_ms', round(preview.medianMs, 0));
    report('rules.preview_10k_first_ms', round(preview.firstMs, 0));
    report('rules.replica_fill_10k_ms', round(preview.fillMs, 0));
    await runFigures(report);
    if (QUICK) console.log(`(quick: ${PREVIEW_LISTINGS} listings previewed, ${RUN_WRITES} writes)`);
  },
};
export default bench;
