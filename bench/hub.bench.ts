import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createClient, type SlabdeskClient } from '../src/client';
import { listingWriteQueue } from '../src/client/listing-write-queue';
import { DEMO_SELLER_ID, startSandbox, type RunningSandbox } from '../src/sandbox';
import { startAppServer, type RunningAppServer } from '../src/server/app-server';
import { distPages } from '../src/server/dist-pages';
import { startCountingProxy, type CountingProxy } from '../test/support/counting-proxy';
import { figureAsked, median, round, type Bench } from './bench-api';
import { buildDashboard, launchChromium } from './browser-setup';
import type { FloodJob, FloodResult } from './webhook-flood-worker';
import { sized } from './quick';

/** The live bucket's minimum for 120 writes from empty: 40 at once, then 2 a second. */
/** The bulk runs' edits (a quick run: enough to pass the bucket's 40 at once). */
const EDITS = sized(120, 44);
const MINIMUM_SECONDS = (EDITS - 40) / 2;
const CLICKS = sized(7, 2);
const SALES = sized(5, 1);

interface Product {
  id: string;
  status: string;
  svc_is_lot: boolean;
  variants: { price: string }[];
}

async function control<T>(sandbox: RunningSandbox, method: string, path: string, body?: unknown) {
  const response = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
  return (await response.json()) as T;
}

/** A fresh live key of the demo seller: an empty bucket nobody else uses. */
async function freshKey(sandbox: RunningSandbox): Promise<string> {
  const { key } = await control<{ key: { token: string } }>(sandbox, 'POST', '/keys', {
    seller_id: DEMO_SELLER_ID,
    mode: 'live',
    scopes: ['read_listings', 'write_listings', 'read_orders', 'read_inventory'],
  });
  return key.token;
}

/** A tab: a client of the server's `/api`, no key, no pacing of its own (as in the browser). */
const tab = (app: RunningAppServer): SlabdeskClient =>
  createClient({
    baseUrl: `${app.url}/api`,
    pacing: { enabled: false, maxInFlight: 6 },
    sendPriority: true,
  });

function priceEdits(products: Product[], bump: number) {
  return products.map((p) => ({
    kind: 'update' as const,
    id: p.id,
    patch: { price: (Number(p.variants[0]!.price) + bump).toFixed(2) },
  }));
}

async function bulkRun(client: SlabdeskClient, products: Product[], bump: number) {
  const queue = listingWriteQueue(client, { concurrency: 6 });
  queue.addWrites(priceEdits(products, bump));
  const items = await queue.settled();
  const failed = items.filter((item) => item.status !== 'done');
  if (failed.length > 0)
    throw new Error(`${failed.length} writes failed: ${failed[0]?.error?.code}`);
}

const FLOOD = sized(5000, 200);
const FLOOD_SECRET = 'svc_whsec_TheFloodBenchSigningSecret00000001';
/** The event-loop delay histogram's resolution: a delay is measured to within this. */
const LAG_RESOLUTION_MS = 10;

const SERVER_FIGURES = [
  'hub.two_tabs_120.ratio',
  'hub.two_tabs_120.upstream_429s',
  'hub.click_during_bulk_ms',
  'hub.sale_to_screen_ms',
  'hub.sale_to_screen.polling_requests',
];
const FLOOD_FIGURES = [
  'hub.webhook_flood_5000.answered_2xx',
  'hub.webhook_flood_5000.applied',
  'hub.webhook_flood_5000.ledger',
  'hub.webhook_flood_5000.max_lag_ms',
  'hub.webhook_flood_5000.seconds',
];

/** Whether `npm run bench -- PREFIX` asks for any of these figures (as bench/run.ts decides). */
function asked(figures: readonly string[]): boolean {
  return figures.some(figureAsked);
}

/**
 * 5,000 signed deliveries in a burst (50 at a time, a product of about 3 KB each) with one tab
 * open, against the real app server with its ledger on disk. The marketplace and the tab run in
 * a child process, so the server's event loop (measured here, `monitorEventLoopDelay`) carries
 * only the server's work: every delivery verified, parsed, looked up, pushed to the tab,
 * claimed and answered. Budget: every one answered 2xx and applied once, and the loop never
 * late by more than 50 ms.
 */
async function webhookFlood(report: (name: string, value: number) => void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'slabdesk-flood-'));
  const app = await startAppServer(
    {
      upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_live_unused' },
      port: 0,
      hub: { secrets: [FLOOD_SECRET], ledgerPath: join(dir, 'hub.db') },
    },
    async () => ({
      development: false,
      register: async () => {},
      pageHtml: async () => '<!doctype html><title>flood</title>',
    }),
  );
  const lag = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
  try {
    const child = fork(fileURLToPath(new URL('./webhook-flood-worker.ts', import.meta.url)), {
      execArgv: ['--import', 'tsx'],
    });
    const result = await new Promise<FloodResult>((resolve, reject) => {
      child.on('message', (message: { ready?: true; result?: FloodResult }) => {
        if (message.ready) {
          lag.reset();
          lag.enable();
          child.send('go');
        }
        if (message.result) resolve(message.result);
      });
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the flood worker exited with ${code}`)));
      const job: FloodJob = {
        serverUrl: app.url,
        secret: FLOOD_SECRET,
        count: FLOOD,
        concurrency: 50,
      };
      child.send(job);
    });
    lag.disable();
    if (result.answered2xx !== FLOOD) {
      console.warn(`flood: answers by status ${JSON.stringify(result.statuses)}`);
    }
    report('hub.webhook_flood_5000.answered_2xx', result.answered2xx);
    // Applied once: each event reached the tab once (distinct ids), and was claimed once.
    report(
      'hub.webhook_flood_5000.applied',
      result.received === result.distinct ? result.distinct : -result.received,
    );
    report('hub.webhook_flood_5000.ledger', app.hub.ledger.count());
    // The histogram records each interval of its timer: the lateness is what exceeds it.
    report(
      'hub.webhook_flood_5000.max_lag_ms',
      round(Math.max(0, lag.max / 1e6 - LAG_RESOLUTION_MS), 1),
    );
    report('hub.webhook_flood_5000.seconds', round(result.seconds, 2));
  } finally {
    lag.disable();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export default {
  figures: [...SERVER_FIGURES, ...FLOOD_FIGURES],
  async run(report) {
    if (asked(FLOOD_FIGURES)) await webhookFlood(report);
    if (asked(SERVER_FIGURES)) await serverFigures(report);
  },
} satisfies Bench;

/** The figures of the server's governor and hub against the sandbox and a browser. */
async function serverFigures(report: (name: string, value: number) => void): Promise<void> {
  const outDir = await buildDashboard();
  const sandbox = await startSandbox({
    port: 0,
    db: ':memory:',
    seed: 'demo',
    demoListings: 600,
  });
  const counter: CountingProxy = await startCountingProxy(sandbox.url);
  const servers: RunningAppServer[] = [];
  const serve = async (apiKey: string) => {
    const app = await startAppServer(
      {
        upstream: { baseUrl: counter.url, apiKey },
        port: 0,
        hub: { registerWith: { sandboxUrl: sandbox.url, sellerId: DEMO_SELLER_ID } },
      },
      async () => distPages(outDir),
    );
    servers.push(app);
    return app;
  };
  try {
    const { products } = await control<{ products: Product[] }>(
      sandbox,
      'GET',
      `/listings?seller_id=${DEMO_SELLER_ID}`,
    );
    const editable = products.filter(
      (p) => p.status === 'active' && !p.svc_is_lot && Number(p.variants[0]!.price) >= 12,
    );
    if (editable.length < EDITS + SALES) throw new Error('not enough active listings');

    // Two tabs, 60 edits each, on a fresh live key with an empty bucket, through the server.
    {
      const app = await serve(await freshKey(sandbox));
      const before = counter.count(429);
      const started = performance.now();
      await Promise.all([
        bulkRun(tab(app), editable.slice(0, EDITS / 2), 1),
        bulkRun(tab(app), editable.slice(EDITS / 2, EDITS), 1),
      ]);
      const seconds = (performance.now() - started) / 1000;
      report('hub.two_tabs_120.ratio', round(seconds / MINIMUM_SECONDS, 3));
      report('hub.two_tabs_120.upstream_429s', counter.count(429) - before);
    }

    // A page's first API answer in one tab while a 120-edit bulk job runs in another.
    {
      const app = await serve(await freshKey(sandbox));
      const bulk = bulkRun(tab(app), editable.slice(0, EDITS), 2);
      let bulkDone = false;
      void bulk.finally(() => (bulkDone = true));
      const samples: number[] = [];
      // Let the job fill the bucket first: the clicks come while it is full.
      while (app.hub.governor.snapshot().waitingBy.bulk === 0 && !bulkDone) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      for (let i = 0; i < CLICKS && !bulkDone; i++) {
        const click = tab(app);
        const started = performance.now();
        // The first request a page makes: the first page of its list.
        await click.transport.request({ path: '/orders.json', query: { limit: 50 } });
        samples.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 3000));
      }
      await bulk;
      report('hub.click_during_bulk_ms', round(median(samples), 0));
    }

    // From the sandbox selling a listing to its row reading sold in an open tab.
    {
      const app = await serve(await freshKey(sandbox));
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        await page.goto(`${app.url}/listings`);
        // The header's one status says the updates arrive as they happen.
        await page.getByRole('button', { name: /updates on/ }).waitFor();
        const search = page.getByRole('searchbox', { name: 'Search' });
        const samples: number[] = [];
        let polls = 0;
        for (const product of editable.slice(EDITS, EDITS + SALES)) {
          await search.fill(product.id);
          // The search by id leaves one row: the listing, still active (its status in words).
          await page.waitForFunction(
            () => {
              const rows = document.querySelectorAll('table tbody tr:not(.spacer)');
              return rows.length === 1 && rows[0]!.textContent!.includes('Active');
            },
            undefined,
            { polling: 'raf' },
          );
          const onRequest = (request: { url(): string }) => {
            if (new URL(request.url()).pathname.startsWith('/api/')) polls++;
          };
          page.on('request', onRequest);
          const started = Date.now();
          await control(sandbox, 'POST', `/listings/${product.id}/sell`, {});
          await page.waitForFunction(
            () =>
              document
                .querySelector('table tbody tr:not(.spacer)')
                ?.textContent?.includes('Sold') === true,
            undefined,
            { polling: 'raf' },
          );
          samples.push(Date.now() - started);
          page.off('request', onRequest);
        }
        report('hub.sale_to_screen_ms', round(median(samples), 0));
        report('hub.sale_to_screen.polling_requests', polls);
      } finally {
        await browser.close();
      }
    }
  } finally {
    for (const app of servers) await app.close();
    await counter.close();
    await sandbox.close();
  }
}
