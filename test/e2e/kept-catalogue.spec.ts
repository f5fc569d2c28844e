import { expect, test, type Page } from '@playwright/test';
import { apiUrlOf, pagesOfWalkAnswer } from '../support/walk-answer';
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

test('a reload shows the kept catalogue at once, with edits made elsewhere, in one read', async ({
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

  // Every listings read of the reload: calls of their own, and pages a walk answer brought.
  // Walk answers are read here in full (route.fetch) and handed on: the body of a streamed
  // answer is not always still available to a response listener once the page has read it.
  const reads: string[] = [];
  let reloaded = false;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) reloaded = true;
  });
  page.on('request', (request) => {
    const read = apiUrlOf(request.url());
    if (!reloaded || read === undefined || new URL(request.url()).pathname === '/hub/walk') return;
    if (new URL(read).pathname.endsWith('/listings.json')) reads.push(new URL(read).search);
  });
  await page.route('**/hub/walk?**', async (route) => {
    const response = await route.fetch();
    const body = await response.body();
    const read = apiUrlOf(route.request().url());
    if (reloaded && read !== undefined && new URL(read).pathname.endsWith('/listings.json')) {
      // A walk answer of listings: each page it brought was one API call.
      for (const walked of pagesOfWalkAnswer(body)) reads.push(new URL(walked.head.url).search);
    }
    await route.fulfill({ response, body });
  });
  await page.reload();
  await expect(page.getByText(/^600 of 600 listings/)).toBeVisible();
  await expect(page.locator('.freshness')).toHaveText(/^Updated just now$/, { timeout: 20_000 });
  await page.getByRole('searchbox', { name: 'Search' }).fill(listing.id);
  const table = page.getByRole('table', { name: 'Listings' });
  const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  await expect(table.getByText(usd.format(Number(price)))).toBeVisible();
  // One incremental read: no walk of 600 listings, and no check of the store's oldest row (this
  // session's own walk read the store).
  expect(reads).toHaveLength(1);
  expect(reads.some((search) => search.includes('updated_at_min'))).toBe(true);

  await page.unrouteAll({ behavior: 'ignoreErrors' });
  // Put the price back for the journeys that follow on this sandbox.
  await api(`/listings/${listing.id}.json`, {
    method: 'PUT',
    body: { listing: { price: listing.price } },
  });
});
