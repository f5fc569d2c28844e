import { expect, test, type Page } from '@playwright/test';
import { demoApiFetch } from './demo-records';

/** How many listings this origin's kept copy holds (0 before its first save). */
const keptRows = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const req = indexedDB.open('slabdesk-kept');
        req.onsuccess = () => {
          const db = req.result;
          if (!db.objectStoreNames.contains('heads')) {
            db.close();
            resolve(0);
            return;
          }
          const get = db.transaction('heads').objectStore('heads').get('listings');
          get.onsuccess = () => {
            db.close();
            resolve((get.result as { rowCount?: number } | undefined)?.rowCount ?? 0);
          };
        };
        req.onerror = () => resolve(0);
      }),
  );

async function api(path: string, init: { method?: string; body?: unknown } = {}) {
  const response = await demoApiFetch(path, init);
  expect(response.status).toBe(200);
  return response.json() as Promise<Record<string, unknown>>;
}

test('a reload shows the kept catalogue at once, with edits made elsewhere, from the hub’s change feed', async ({
  page,
}) => {
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto('/listings');
  await expect(page.getByText(/^600 of 600 listings/)).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('.freshness')).toHaveText(/Updated just now/);
  await expect.poll(() => keptRows(page), { timeout: 20_000 }).toBe(600);

  // Elsewhere (another tool of the seller's): one listing's price changes.
  const { listings } = (await api('/listings.json?limit=50&fields=id,status,price')) as {
    listings: { id: string; status: string; price: string }[];
  };
  const listing = listings.find((row) => row.status === 'active')!;
  const price = (Number(listing.price) + 1).toFixed(2);
  await api(`/listings/${listing.id}.json`, { method: 'PUT', body: { listing: { price } } });

  // Every read of the reload: the API's (through our server), and the hub's change feed.
  const reads: string[] = [];
  const feed: string[] = [];
  let reloaded = false;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) reloaded = true;
  });
  page.on('request', (request) => {
    if (!reloaded) return;
    const url = new URL(request.url());
    if (url.pathname === '/hub/replica/listings') feed.push(url.search);
    if (url.pathname.startsWith('/api/') && url.pathname.endsWith('/listings.json')) {
      reads.push(request.url());
    }
  });
  await page.reload();
  await expect(page.getByText(/^600 of 600 listings/)).toBeVisible();
  await expect(page.locator('.freshness')).toHaveText(/^Updated just now$/, { timeout: 20_000 });
  await page.getByRole('searchbox', { name: 'Search' }).fill(listing.id);
  const table = page.getByRole('table', { name: 'Listings' });
  const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  await expect(table.getByText(usd.format(Number(price)))).toBeVisible();
  // No read of the API's listings at all: the kept copy and the rows the hub changed since its
  // cursor (the edit reached the hub by its webhook), never a snapshot again.
  expect(reads).toEqual([]);
  expect(feed.length).toBeGreaterThanOrEqual(1);
  expect(feed.every((search) => search.includes('cursor='))).toBe(true);

  // Put the price back for the journeys that follow on this sandbox.
  await api(`/listings/${listing.id}.json`, {
    method: 'PUT',
    body: { listing: { price: listing.price } },
  });
});
