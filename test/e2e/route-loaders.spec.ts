import { expect, test, type Page } from '@playwright/test';

/**
 * Opens `path` with the page's code chunk held back until the read has gone out (or 10 s pass,
 * and the test fails), and expects the read to go out first.
 */
async function expectReadBeforeChunk(
  page: Page,
  { path, chunk, api, heading }: { path: string; chunk: RegExp; api: RegExp; heading: string },
) {
  const events: string[] = [];
  let readSent!: () => void;
  const sent = new Promise<void>((resolve) => (readSent = resolve));
  await page.route(chunk, async (route) => {
    await Promise.race([sent, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    events.push('chunk released');
    await route.continue();
  });
  page.on('request', (request) => {
    if (api.test(request.url())) {
      events.push('read sent');
      readSent();
    }
  });
  await page.goto(path);
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  expect(events.slice(0, 2)).toEqual(['read sent', 'chunk released']);
}

/**
 * A page's reads start while its code chunk is still on the way (the route's loader), not after
 * it arrives: with the chunk held back, the read (the API's, or the hub's change feed for a kept
 * collection) goes out before the chunk comes.
 */
for (const { path, chunk, api, heading } of [
  {
    path: '/locations',
    chunk: /\/assets\/locations-page-[^/]+\.js$/,
    api: /\/api\/2026-07\/locations\.json/,
    heading: 'Locations',
  },
  {
    path: '/inventory',
    chunk: /\/assets\/inventory-page-[^/]+\.js$/,
    api: /\/hub\/replica\/inventory_items/,
    heading: 'Inventory',
  },
  {
    path: '/insights',
    chunk: /\/assets\/insights-page-[^/]+\.js$/,
    api: /\/hub\/replica\/orders/,
    heading: 'Insights',
  },
  {
    path: '/',
    chunk: /\/assets\/overview-page-[^/]+\.js$/,
    api: /\/hub\/replica\/listings/,
    heading: 'Overview',
  },
  {
    path: '/listings',
    chunk: /\/assets\/listings-page-[^/]+\.js$/,
    api: /\/hub\/replica\/listings/,
    heading: 'Listings',
  },
  {
    path: '/orders',
    chunk: /\/assets\/orders-page-[^/]+\.js$/,
    api: /\/hub\/replica\/orders/,
    heading: 'Orders',
  },
  {
    path: '/orders?status=any',
    chunk: /\/assets\/orders-page-[^/]+\.js$/,
    api: /\/hub\/replica\/orders/,
    heading: 'Orders',
  },
  {
    path: '/payouts',
    chunk: /\/assets\/payouts-page-[^/]+\.js$/,
    api: /\/hub\/replica\/orders/,
    heading: 'Payouts',
  },
]) {
  test(`${path}: the read starts before the page's code has arrived`, async ({ page }) => {
    await expectReadBeforeChunk(page, { path, chunk, api, heading });
  });
}

test('/insights: on a first visit its reads go out before the /ping answers', async ({ page }) => {
  const events: string[] = [];
  // Hold the ping back until the orders read has gone out (or 10 s pass, and the test fails).
  let readSent!: () => void;
  const sent = new Promise<void>((resolve) => (readSent = resolve));
  await page.route(/\/api\/2026-07\/ping/, async (route) => {
    await Promise.race([sent, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    events.push('ping answered');
    await route.continue();
  });
  page.on('request', (request) => {
    if (/\/hub\/replica\/orders/.test(request.url())) {
      events.push('read sent');
      readSent();
    }
  });
  await page.goto('/insights');
  await expect(page.getByRole('heading', { name: 'Insights', level: 1 })).toBeVisible();
  expect(events.slice(0, 2)).toEqual(['read sent', 'ping answered']);
});

/** This origin's kept listings: how many rows the saved copy holds (0 before its save lands). */
const KEPT_LISTINGS = `new Promise((resolve) => {
  const req = indexedDB.open('slabdesk-kept');
  req.onsuccess = () => {
    const db = req.result;
    if (!db.objectStoreNames.contains('heads')) { db.close(); resolve(0); return; }
    const get = db.transaction('heads').objectStore('heads').get('listings');
    get.onsuccess = () => { db.close(); resolve(get.result ? get.result.rowCount : 0); };
  };
  req.onerror = () => resolve(0);
})`;

/**
 * The catalogue pages on a revisit: the kept copy is read while the page's code loads (its read
 * of the hub's changes goes out before the held-back chunk), as a first visit's snapshot is.
 */
for (const { path, chunk, heading } of [
  { path: '/listings', chunk: /\/assets\/listings-page-[^/]+\.js$/, heading: 'Listings' },
  {
    path: '/listings/bulk-edit',
    chunk: /\/assets\/bulk-edit-page-[^/]+\.js$/,
    heading: 'Bulk edit',
  },
]) {
  test(`${path}: on a revisit the kept catalogue is read before the page's code has arrived`, async ({
    page,
  }) => {
    await page.goto('/listings');
    await expect(page.getByRole('heading', { name: 'Listings', level: 1 })).toBeVisible();
    await expect.poll(() => page.evaluate(KEPT_LISTINGS), { timeout: 20_000 }).toBeGreaterThan(0);

    await expectReadBeforeChunk(page, {
      path,
      chunk,
      api: /\/hub\/replica\/listings/,
      heading,
    });
  });
}

/**
 * A page opened by its address names its route's code (see route-preloads): the browser asks
 * for the page's chunk while the entry's code is still on its way, once, not after running it.
 */
for (const { path, chunk, heading } of [
  { path: '/listings', chunk: /\/assets\/listings-page-[^/]+\.js$/, heading: 'Listings' },
  { path: '/', chunk: /\/assets\/overview-page-[^/]+\.js$/, heading: 'Overview' },
]) {
  test(`${path}: the page's chunk is asked for before the entry's code has arrived`, async ({
    page,
  }) => {
    const events: string[] = [];
    let asked!: () => void;
    const chunkAsked = new Promise<void>((resolve) => (asked = resolve));
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await Promise.race([chunkAsked, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      events.push('entry released');
      await route.continue();
    });
    page.on('request', (request) => {
      if (chunk.test(new URL(request.url()).pathname)) {
        events.push('chunk asked for');
        asked();
      }
    });
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    expect(events).toEqual(['chunk asked for', 'entry released']);
  });
}

/** A show with two of the demo's active slabs in its case, made through the server as a page does. */
async function showWithCase(baseURL: string | undefined, name: string) {
  const listed = await fetch(`${baseURL}/api/2026-07/listings.json?status=active&limit=2`);
  const { listings } = (await listed.json()) as { listings: { id: string; title: string }[] };
  const key = crypto.randomUUID();
  const json = { 'content-type': 'application/json' };
  const made = await fetch(`${baseURL}/hub/shows`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ key, name, date: '2026-11-28' }),
  });
  expect(made.status).toBe(201);
  const cased = await fetch(`${baseURL}/hub/shows/${key}/case`, {
    method: 'PUT',
    headers: json,
    body: JSON.stringify({ listingIds: listings.map((listing) => listing.id) }),
  });
  expect(cased.status).toBe(200);
  return { key, listings };
}

/**
 * A show's page draws its case from the show's own answer: the whole catalogue (kept for scanning
 * offline) is not waited for. With the catalogue's read held back, the case's slabs are there.
 */
test("a show's page: the case is drawn before the catalogue is read", async ({ page, baseURL }) => {
  const { key, listings } = await showWithCase(baseURL, 'Case first show');
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  // The catalogue and the list of shows are held back: the page has only the show's own answer.
  await page.route(/\/hub\/(replica\/listings|shows(\?|$))/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(`/shows/${key}`);
  const caseTable = page.getByRole('table').filter({ has: page.getByText(listings[0]!.title) });
  for (const listing of listings) {
    await expect(caseTable.getByRole('link', { name: listing.title })).toBeVisible();
  }
  // A sale from the case is for this show, whether or not the list of shows has come.
  await caseTable.getByRole('button', { name: 'Sold here' }).first().click();
  const form = page.getByRole('form', { name: /^Sold here/ });
  await expect(form.getByRole('combobox', { name: 'Show' })).toHaveValue(key);
  release();
});

/**
 * A show's page preloads the scanner (its reader's wasm is about 360 KB) once the page's own reads
 * are in, not beside them on a phone's slow link: with the catalogue's read held back (until the
 * scanner is asked for, or 5 s pass), the scanner's chunk is asked for only after it is answered.
 */
test("a show's page: the scanner loads after the page's reads, not beside them", async ({
  page,
  baseURL,
}) => {
  const { key } = await showWithCase(baseURL, 'Scanner order show');

  const events: string[] = [];
  let scannerAsked!: () => void;
  const asked = new Promise<void>((resolve) => (scannerAsked = resolve));
  let held = true;
  await page.route(/\/hub\/replica\/listings/, async (route) => {
    if (held) {
      await Promise.race([asked, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      held = false;
      events.push('catalogue answered');
    }
    await route.continue();
  });
  page.on('request', (request) => {
    if (/\/assets\/scan-dialog-[^/]+\.js$/.test(request.url())) {
      events.push('scanner asked for');
      scannerAsked();
    }
  });
  await page.goto(`/shows/${key}`);
  await expect(page.getByRole('heading', { name: /Scanner order show/, level: 1 })).toBeVisible();
  await expect.poll(() => events.length, { timeout: 20_000 }).toBe(2);
  expect(events).toEqual(['catalogue answered', 'scanner asked for']);
});

/**
 * What a page's rows do not need waits for them (api/first-reads): on Listings, the header's
 * orders and the sold marks' orders are asked for only once the catalogue is in.
 */
test('/listings: the orders are asked for after the catalogue is answered', async ({ page }) => {
  const events: string[] = [];
  page.on('requestfinished', (request) => {
    if (/\/hub\/replica\/listings/.test(request.url())) events.push('catalogue answered');
  });
  page.on('request', (request) => {
    if (/\/hub\/replica\/orders/.test(request.url())) events.push('orders asked for');
  });
  await page.goto('/listings');
  await expect(page.getByRole('heading', { name: 'Listings', level: 1 })).toBeVisible();
  await expect.poll(() => events.includes('orders asked for'), { timeout: 20_000 }).toBe(true);
  expect(events[0]).toBe('catalogue answered');
});
