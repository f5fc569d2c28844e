import { showWithCase, startDemoApp } from './show-scene';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { DEMO_LIVE_TOKEN, type RunningSandbox } from '../../src/sandbox';
import type { RunningAppServer } from '../../src/server/app-server';
import { untilKeptOffline } from './support';

/**
 * The show page on a phone with no network: the ledger as last read, the sale made here since
 * listed and added into the totals as waiting, and the header saying it is offline; then, the
 * network back, the same figures from the ledger alone. On the production build and a sandbox of
 * its own (the service worker serves the reload).
 */
test.use({ serviceWorkers: 'allow' });

let sandbox: RunningSandbox;
let app: RunningAppServer;
let context: BrowserContext | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  ({ sandbox, app } = await startDemoApp());
});

test.afterEach(async () => {
  await context?.close();
});

test.afterAll(async () => {
  await app?.close();
  await sandbox?.close();
});

const at = (path: string) => `${app.url}${path}`;

/** Two active single slabs of the demo store, with their titles. */
async function twoSlabs(): Promise<{ id: string; title: string }[]> {
  const answer = await fetch(`${sandbox.url}/2026-07/listings.json?status=active&limit=100`, {
    headers: { 'X-Service-Access-Token': DEMO_LIVE_TOKEN },
  });
  const { listings } = (await answer.json()) as {
    listings: { id: string; title: string; is_lot: boolean; unavailable_reason?: string | null }[];
  };
  const titles = new Map<string, number>();
  for (const row of listings) titles.set(row.title, (titles.get(row.title) ?? 0) + 1);
  const found = listings
    .filter((row) => !row.is_lot && !row.unavailable_reason && titles.get(row.title) === 1)
    .slice(0, 2);
  expect(found).toHaveLength(2);
  return found.map((row) => ({ id: row.id, title: row.title }));
}

async function sellHere(page: Page, title: string, price: string) {
  const row = page
    .getByRole('table', { name: 'Listings brought to this show' })
    .getByRole('row')
    .filter({ hasText: title });
  await row.getByRole('button', { name: 'Sold here' }).click();
  const form = page.getByRole('form', { name: /^Sold here/ });
  await form.getByLabel('Sold for ($)').fill(price);
  await form.getByRole('button', { name: 'Record the sale' }).click();
}

/** One figure of the show's totals: its name, its value and what is said under it. */
const figure = (page: Page, name: string) =>
  page.getByLabel('Totals').locator('div').filter({ hasText: name });

test('offline on a phone, the show page adds the sale waiting here into its totals, marked as waiting, and the header says offline', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const [first, second] = await twoSlabs();
  const show = await showWithCase(app.url, [first!.id, second!.id]);
  context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  const page = await context.newPage();

  // Online: the catalogue kept, the service worker in control, one slab sold for $250.
  await page.goto(at('/listings'));
  await expect(page.getByRole('status').filter({ hasText: / of \d+ listings/ })).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.locator('.load-progress')).toHaveCount(0, { timeout: 60_000 });
  await untilKeptOffline(page);
  await page.goto(at(`/shows/${show}`));
  await sellHere(page, first!.title, '250');
  await expect(
    page.getByRole('status').filter({ hasText: 'Taken off the marketplace and recorded' }),
  ).toBeVisible({ timeout: 60_000 });
  await expect(figure(page, 'Cash taken')).toContainText('$250.00', { timeout: 30_000 });
  const status = page.getByRole('button', { name: /key ·/ });
  await expect(status).not.toContainText('Offline');

  // No network: a second slab sold for $55 waits on this phone; the page reloaded offline.
  await context.setOffline(true);
  await sellHere(page, second!.title, '55');
  await expect(page.getByText('Saved on this phone')).toBeVisible({ timeout: 30_000 });
  await page.reload();
  const offline = page.getByRole('button', { name: 'Offline · sales are kept on this phone' });
  await expect(offline).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: /connecting/ })).toHaveCount(0);
  await expect(
    page.getByRole('status').filter({ hasText: /^Offline: showing the ledger as read at / }),
  ).toContainText('with the sales waiting on this phone added');
  await expect(figure(page, 'Cash taken')).toContainText('$305.00');
  await expect(figure(page, 'Cash taken')).toContainText('$55.00 of it waiting to be sent');
  await expect(figure(page, 'Cards sold')).toContainText('2');
  await expect(figure(page, 'Cards sold')).toContainText('1 of them waiting to be sent');
  await expect(page.getByText('No sales recorded yet.')).toHaveCount(0);
  const sales = page.getByRole('table', { name: 'Sales at this show' });
  await expect(sales.getByRole('row').filter({ hasText: first!.title })).toContainText('$250.00');
  const waiting = sales.getByRole('row').filter({ hasText: second!.title });
  await expect(waiting).toContainText('Waiting to be sent');
  await expect(waiting).toContainText('$55.00');
  await page.screenshot({ path: 'test/e2e/screenshots/show-offline-waiting.png', fullPage: true });

  // The list of shows says the same of this show.
  await page.getByRole('link', { name: 'Card shows' }).click();
  const listed = page
    .getByRole('table', { name: 'Shows' })
    .getByRole('row')
    .filter({ hasText: `Hall ${show.slice(0, 4)}` });
  await expect(listed).toContainText('$305.00');
  await expect(listed).toContainText('$55.00 of it waiting to be sent');
  await expect(listed).toContainText('1 of them waiting to be sent');
  await listed.getByRole('link').click();
  await expect(figure(page, 'Cash taken')).toContainText('$305.00');

  // The network back: the sale sent, the same figures from the ledger, nothing waiting.
  await context.setOffline(false);
  await expect(page.getByRole('heading', { name: '0 changes waiting' })).toBeVisible({
    timeout: 60_000,
  });
  await expect(figure(page, 'Cash taken')).toContainText('$305.00');
  await expect(figure(page, 'Cash taken')).not.toContainText('waiting', { timeout: 30_000 });
  await expect(sales.getByText('Waiting to be sent')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Live key ·/ })).toBeVisible({ timeout: 30_000 });
});
