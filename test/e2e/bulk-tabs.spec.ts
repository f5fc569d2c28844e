import { expect, test, type Page } from '@playwright/test';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { applyBulk, control, sandboxUrl } from './support';
import { demoApiFetch } from './demo-records';

/**
 * One bulk job, one owner: a job applied in one tab is that tab's while it lives. A second tab
 * of the same browser shows it with its progress and offers no resume or discard; an edit there
 * that overlaps it names the listings in common and can leave them out. The sandbox's own word
 * proves each listing was changed once, by the edit that kept it.
 */

interface DemoProduct {
  id: string;
  status: string;
  svc_is_lot: boolean;
  variants?: { price: string }[];
}

/** 10% more in cents, rounded half up: the grid's arithmetic, done here independently. */
function raised(price: string): string {
  const cents = BigInt(price.replace('.', ''));
  const result = (cents * 11n * 2n + 10n) / 20n;
  return `${result / 100n}.${(result % 100n).toString().padStart(2, '0')}`;
}

async function api(path: string, init: { method?: string; body?: unknown } = {}) {
  return fetch(`${sandboxUrl()}/2026-07${path}`, {
    method: init.method ?? 'GET',
    headers: {
      'X-Service-Access-Token': DEMO_LIVE_TOKEN,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

async function prices(): Promise<Map<string, string>> {
  const { products } = await control<{ products: DemoProduct[] }>('GET', '/listings');
  return new Map(products.map((p) => [p.id, p.variants?.[0]?.price ?? '']));
}

/** Fills the bucket of the demo key (the one the app's proxy uses), so writes wait for room. */
async function fillBucket(): Promise<void> {
  await Promise.all(Array.from({ length: 40 }, () => api('/ping').then((r) => r.text())));
}

/** Raises every price of the bulk editor open on `page` by 10% and previews the writes. */
async function raiseAndPreview(page: Page, rows: number): Promise<void> {
  const grid = page.getByRole('table', { name: `Bulk edit grid, ${rows} listings` });
  await expect(grid).toBeVisible({ timeout: 20_000 });
  await page.getByLabel('Price change', { exact: true }).selectOption('raise-percent');
  await page.getByLabel('Percent (%)').fill('10');
  await page.getByRole('button', { name: 'Apply price change' }).click();
  await page.getByRole('button', { name: 'Preview changes' }).click();
}

test('a job running in one tab is not resumed or discarded from another; an overlapping edit leaves its listings out', async ({
  context,
}) => {
  test.setTimeout(120_000);
  const { products } = await control<{ products: DemoProduct[] }>('GET', '/listings');
  const ids = products
    .filter((p) => p.status === 'active' && !p.svc_is_lot && p.variants?.[0]?.price)
    .slice(-16)
    .map((p) => p.id);
  expect(ids).toHaveLength(16);
  const before = await prices();
  const first = ids.slice(0, 12);
  const second = ids.slice(10, 16);
  const shared = ids.slice(10, 12);

  const tabA = await context.newPage();
  const tabB = await context.newPage();
  for (const tab of [tabA, tabB]) {
    tab.on('pageerror', (error) => {
      throw error;
    });
  }
  await tabA.goto(`/listings/bulk-edit?ids=${first.join(',')}`);
  await raiseAndPreview(tabA, first.length);
  // Writes wait for the bucket: tab A's job is paused with most of its rows still to send.
  await fillBucket();
  const hog = setInterval(() => void api('/ping').then((r) => r.text()), 1000);
  try {
    const firstBefore = first.map((id) => before.get(id)!);
    await applyBulk(tabA, first.length, firstBefore, firstBefore.map(raised));
    await tabA.getByRole('button', { name: 'Pause' }).click();
    await expect(tabA.getByRole('heading', { name: /^Paused:/ })).toBeVisible({ timeout: 30_000 });
  } finally {
    clearInterval(hog);
  }

  // Tab B: the job is shown as another tab's, with its progress, and nothing to resume or discard.
  await tabB.goto(`/listings/bulk-edit?ids=${second.join(',')}`);
  const elsewhere = tabB.getByRole('region', { name: 'Bulk edit running in another tab' });
  await expect(elsewhere).toBeVisible({ timeout: 20_000 });
  await expect(
    elsewhere.getByRole('progressbar', { name: 'Progress in the other tab' }),
  ).toHaveAttribute('max', String(first.length));
  await expect(tabB.getByRole('region', { name: 'Unfinished bulk edit' })).toHaveCount(0);
  await expect(tabB.getByRole('button', { name: 'Discard' })).toHaveCount(0);
  await expect(tabB.getByRole('button', { name: 'Resume' })).toHaveCount(0);

  // Tab B's own edit overlaps it: the listings in common are named and left out.
  await raiseAndPreview(tabB, second.length);
  const secondBefore = second.map((id) => before.get(id)!);
  await applyBulk(tabB, second.length, secondBefore, secondBefore.map(raised));
  const warning = tabB.getByRole('region', { name: 'Listings in another bulk edit' });
  await expect(warning).toBeVisible();
  for (const id of shared) await expect(warning.getByText(id, { exact: false })).toBeVisible();
  await expect(warning.getByRole('listitem')).toHaveCount(shared.length);
  await warning.getByRole('button', { name: 'Leave them out and apply 4 listings' }).click();
  await expect(tabB.getByRole('heading', { name: /^Finished:/ })).toBeVisible({ timeout: 60_000 });
  await expect(tabB.locator('.bulk-progress-text')).toHaveText(/^4 of \d+ saved/);

  // Tab A goes on and finishes its job; once it is closed, tab B no longer shows it.
  await tabA.getByRole('button', { name: 'Resume' }).click();
  await expect(tabA.getByRole('heading', { name: /^Finished:/ })).toBeVisible({ timeout: 60_000 });
  await expect(tabA.locator('.bulk-progress-text')).toHaveText(/^12 of \d+ saved/);
  await tabA.close();
  await expect(elsewhere).toHaveCount(0, { timeout: 10_000 });

  // Every listing raised once: none twice, none lost.
  const after = await prices();
  for (const id of ids) expect(after.get(id), id).toBe(raised(before.get(id)!));

  // Put the prices back for the journeys that follow on this sandbox (waiting out the bucket).
  for (const id of ids) {
    const body = { listing: { price: before.get(id) } };
    const response = await demoApiFetch(`/listings/${id}.json`, { method: 'PUT', body });
    expect(response.status).toBe(200);
  }
});
