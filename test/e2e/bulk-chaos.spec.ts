import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { startFaultProxy, type Fault, type FaultProxy } from '../client/fault-proxy';
import { applyBulk, control, lowered } from './support';

/**
 * The bulk journey in Chromium through a hostile network: a fault proxy between the dashboard's
 * server and the sandbox drops connections after the sandbox committed and before it saw the
 * request, answers 500, 429 and 503 in its stead, and rewrites every `Link` header into other
 * forms RFC 8288 allows. A 40-listing price change from the UI must end with every listing changed
 * exactly once (the sandbox's webhook events say so) and the page must report what happened.
 */

interface DemoProduct {
  id: string;
  status: string;
  svc_is_lot: boolean;
  variants: { price: string }[];
}

const sandbox = () => process.env.SLABDESK_E2E_SANDBOX!;

/** The faults a write meets on its first try, in turn; every retry passes. */
const WRITE_FAULTS: Fault[] = [
  'drop_after',
  'pass',
  'drop_before',
  'error_500',
  'rate_limited',
  'error_after',
  'unavailable',
  'pass',
];
const READ_FAULTS: Fault[] = ['pass', 'pass', 'error_500', 'pass', 'rate_limited', 'pass'];
/** `Link` forms the upstream writes instead of ours, in turn. */
const LINK_FORMS: ((link: string) => string)[] = [
  (l) => l.replace(/; rel="(\w+)"/g, '; title="page"; rel="$1"'),
  (l) => l.replace(/; rel="(\w+)"/g, (_m, rel: string) => `; REL=${rel.toUpperCase()}`),
  (l) => l.replace(/; rel="(\w+)"/g, ' ; rel = "$1"'),
];

let proxy: FaultProxy;
let app: RunningAppServer;
let receiver: Server;
const updates: { id: string; price: string }[] = [];

test.describe.serial('bulk editing through a hostile network', () => {
  test.beforeAll(async () => {
    const firstTries = new Set<string>();
    let writes = 0;
    let reads = 0;
    let links = 0;
    proxy = await startFaultProxy(sandbox(), {
      decide: (info) => {
        if (info.method === 'PUT' && info.idempotencyKey) {
          if (firstTries.has(info.idempotencyKey)) return 'pass';
          firstTries.add(info.idempotencyKey);
          return WRITE_FAULTS[writes++ % WRITE_FAULTS.length]!;
        }
        return info.method === 'GET' ? READ_FAULTS[reads++ % READ_FAULTS.length]! : 'pass';
      },
      rewriteLink: (link) => LINK_FORMS[links++ % LINK_FORMS.length]!(link),
    });
    app = await startAppServer(
      { upstream: { baseUrl: proxy.url, apiKey: DEMO_LIVE_TOKEN }, port: 0 },
      async () => distPages(resolve(import.meta.dirname, '../../dist/page')),
    );
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const product = JSON.parse(body) as DemoProduct;
        updates.push({ id: product.id, price: product.variants[0]?.price ?? '' });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    const { port } = receiver.address() as AddressInfo;
    const demo = await control<{ demo: { seller_id: string } }>('GET', '/demo');
    await control('POST', '/webhooks', {
      seller_id: demo.demo.seller_id,
      url: `http://127.0.0.1:${port}/hooks`,
      topics: ['products/update'],
    });
  });

  test.afterAll(async () => {
    await app.close();
    await proxy.close();
    await new Promise((done) => receiver.close(done));
    await control('POST', '/reset', { seed: 'demo' });
  });

  test('a 40-listing price change writes each listing exactly once and reports it truly', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    page.on('pageerror', (error) => {
      throw error;
    });
    const response = await fetch(`${sandbox()}/2026-07/products.json?limit=250`, {
      headers: { 'X-Service-Access-Token': DEMO_LIVE_TOKEN },
    });
    const products = ((await response.json()) as { products: DemoProduct[] }).products;
    const chosen = products
      .filter((p) => p.status === 'active' && !p.svc_is_lot && Number(p.variants[0]!.price) >= 12)
      .slice(0, 40);
    expect(chosen).toHaveLength(40);
    const expected = new Map(chosen.map((p) => [p.id, lowered(p.variants[0]!.price)]));

    await page.goto(`${app.url}/listings/bulk-edit?ids=${chosen.map((p) => p.id).join(',')}`);
    const grid = page.getByRole('table', { name: 'Bulk edit grid, 40 listings' });
    await expect(grid).toBeVisible({ timeout: 60_000 });

    await page.getByLabel('Price change', { exact: true }).selectOption('lower-percent');
    await page.getByLabel('Percent (%)').fill('10');
    await page.getByRole('button', { name: 'Apply price change' }).click();
    await expect(page.getByText('Lower price by 10%: 40 cells changed').first()).toBeVisible();
    await page.getByRole('button', { name: 'Preview changes' }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect(preview.getByText('40 listings change: 40 changes')).toBeVisible();
    await applyBulk(
      page,
      40,
      chosen.map((p) => p.variants[0]!.price),
      chosen.map((p) => expected.get(p.id)!),
      // Three of the demo's cards would sell below cost at 10% off: sold so, as the test means.
      3,
    );

    await expect(page.getByRole('heading', { name: /^Finished:/ })).toBeVisible({
      timeout: 150_000,
    });
    // What the page reports: every write done, none failed, nothing left.
    await expect(page.locator('.bulk-progress-text')).toHaveText('40 of 40 saved');
    await expect(page.getByText(/^Failed:/)).toHaveCount(0);

    // What happened: one products/update per listing, with the new price, and nothing else.
    await expect.poll(() => updates.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(40);
    await new Promise((done) => setTimeout(done, 1500)); // a late duplicate would show by now
    const byId = new Map<string, string[]>();
    for (const update of updates)
      byId.set(update.id, [...(byId.get(update.id) ?? []), update.price]);
    expect(byId.size).toBe(40);
    for (const [id, price] of expected) expect(byId.get(id), id).toEqual([price]);

    // The faults really happened: writes dropped after commit and before, 5xx, 429 and 503.
    const applied = new Set(proxy.log.filter((e) => e.method === 'PUT').map((e) => e.fault));
    for (const fault of [
      'drop_after',
      'drop_before',
      'error_500',
      'rate_limited',
      'error_after',
      'unavailable',
    ] as const) {
      expect(applied.has(fault), fault).toBe(true);
    }
  });
});
