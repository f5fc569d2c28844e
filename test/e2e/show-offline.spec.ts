import { formatDay } from '../../src/lib/format';
import { showWithCase } from './show-scene';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { DEMO_LIVE_TOKEN, startSandbox, type RunningSandbox } from '../../src/sandbox';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { writeUsersDb } from '../support/users-db';
import { untilKeptOffline } from './support';

/**
 * The card show with no network, on the production build and a sandbox of their own: a reload
 * offline, "Sold here" offline sent once on reconnecting, a sale that meets a card sold online
 * meanwhile, a slab sold once however many phones try, sign-out leaving nothing behind, and a
 * repeat visit loading no app code.
 */
// This suite is about the service worker: the config blocks it for every other suite.
test.use({ serviceWorkers: 'allow' });

const root = resolve(import.meta.dirname, '../..');
const OWNER = { name: 'olive', role: 'owner' as const, password: 'olive-show-pass-2026' };

let sandbox: RunningSandbox;
let app: RunningAppServer;
let signedIn: RunningAppServer;
let active: string[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  sandbox = await startSandbox({ port: 0, db: ':memory:', seed: 'demo' });
  const upstream = { baseUrl: sandbox.url, apiKey: DEMO_LIVE_TOKEN };
  app = await startAppServer({ upstream, port: 0, activity: { path: ':memory:' } }, async () =>
    distPages(resolve(root, 'dist/page')),
  );
  const users = await writeUsersDb(join(mkdtempSync(join(tmpdir(), 'slabdesk-show-')), 'u.db'), [
    OWNER,
  ]);
  signedIn = await startAppServer(
    {
      upstream,
      port: 0,
      activity: { path: ':memory:' },
      auth: { usersDb: users, requireSignIn: true },
    },
    async () => distPages(resolve(root, 'dist/page')),
  );
  const page = (await (await atMarketplace('/listings.json?status=active&limit=100')).json()) as {
    listings: { id: string; unavailable_reason?: string | null; is_lot: boolean }[];
  };
  active = page.listings
    .filter((listing) => !listing.unavailable_reason && !listing.is_lot)
    .map((listing) => listing.id);
  expect(active.length).toBeGreaterThan(4);
});

test.afterAll(async () => {
  await app?.close();
  await signedIn?.close();
  await sandbox?.close();
});

const at = (path: string, server = app) => `${server.url}${path}`;

async function ledger(showKey: string) {
  const answer = await fetch(at(`/hub/shows/${showKey}`));
  return (await answer.json()) as {
    entries: { listingId: string; soldOnline: boolean; offMarket: string; priceCents: number }[];
  };
}

/**
 * A call straight at the marketplace with the seller's key, as another client of theirs makes it:
 * it shares the seller's bucket with the server (the page, the replica), so a 429 waits as a
 * client would.
 */
async function atMarketplace(path: string, init: RequestInit = {}): Promise<Response> {
  for (let attempt = 0; ; attempt += 1) {
    const answer = await fetch(`${sandbox.url}/2026-07${path}`, {
      ...init,
      headers: {
        'X-Service-Access-Token': DEMO_LIVE_TOKEN,
        'content-type': 'application/json',
        ...(init.headers as Record<string, string> | undefined),
      },
    });
    if (answer.status !== 429 || attempt >= 10) return answer;
    await new Promise((done) =>
      setTimeout(done, 1000 * Number(answer.headers.get('retry-after') ?? 1)),
    );
  }
}

/** The listing as the sandbox holds it now. */
async function sandboxListing(id: string) {
  const answer = await atMarketplace(`/listings/${id}.json`);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { listing: { status: string; unavailable_reason: string } })
    .listing;
}

async function deactivations(id: string): Promise<number> {
  const answer = await fetch(at(`/hub/activity?listing=${encodeURIComponent(id)}`));
  const { entries } = (await answer.json()) as { entries: { action: string; outcome: string }[] };
  return entries.filter((entry) => entry.action === 'deactivate').length;
}

/** Opens the catalogue until it is whole and kept, with the service worker in control. */
async function warm(page: Page, server = app) {
  await page.goto(at('/listings', server));
  await expect(page.getByRole('status').filter({ hasText: / of \d+ listings/ })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.locator('.load-progress')).toHaveCount(0, { timeout: 30_000 });
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await untilKeptOffline(page);
}

async function sellHere(page: Page, title: RegExp | string, price: string) {
  const row = page.getByRole('row').filter({ hasText: title });
  await row.getByRole('button', { name: 'Sold here' }).click();
  const form = page.getByRole('form', { name: /^Sold here/ });
  await form.getByLabel('Sold for ($)').fill(price);
  await form.getByRole('button', { name: 'Record the sale' }).click();
}

async function titleOf(page: Page, id: string): Promise<string> {
  const answer = await page.request.get(at(`/api/2026-07/listings/${id}.json`));
  return ((await answer.json()) as { listing: { title: string } }).listing.title;
}

let context: BrowserContext;
/** A second phone at the same table. */
let second: BrowserContext | undefined;
test.afterEach(async () => {
  await context?.close();
  await second?.close();
  second = undefined;
});

/** A phone at the table: 390 × 844, touch. */
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true };

interface Slab {
  id: string;
  cert: string;
  price: string;
}

/**
 * Active single slabs whose cert is theirs alone on the first page, past the ones the other tests
 * here take.
 */
async function slabs(count: number): Promise<Slab[]> {
  const answer = await atMarketplace('/listings.json?status=active&limit=100');
  const { listings } = (await answer.json()) as {
    listings: {
      id: string;
      price: string;
      is_lot: boolean;
      unavailable_reason?: string | null;
      card: { cert_number: string };
    }[];
  };
  const certs = new Map<string, number>();
  for (const row of listings) {
    certs.set(row.card.cert_number, (certs.get(row.card.cert_number) ?? 0) + 1);
  }
  const found = listings
    .filter(
      (row) =>
        !row.is_lot &&
        !row.unavailable_reason &&
        certs.get(row.card.cert_number) === 1 &&
        !active.slice(0, 4).includes(row.id),
    )
    .slice(-count)
    .map((row) => ({ id: row.id, cert: row.card.cert_number, price: row.price }));
  expect(found).toHaveLength(count);
  return found;
}

/** Scan from the header, the cert typed (the camera's reading goes the same way). */
async function scan(page: Page, cert: string) {
  await page.getByRole('button', { name: 'Scan', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Scan a slab' });
  await dialog.getByLabel('Or type the cert number').fill(cert);
  await dialog.getByRole('button', { name: 'Look up' }).click();
  await expect(page).toHaveURL(new RegExp(`/show/cert/${cert}$`));
  const view = page.getByRole('region', { name: new RegExp(`cert ${cert}`) });
  await expect(view.getByText('Asking', { exact: true })).toBeVisible({ timeout: 30_000 });
  return view;
}

/** Opens Sold here on the counter view, at this show. */
async function openSale(view: Locator, show: string) {
  await view.getByRole('button', { name: 'Sold here' }).click();
  const form = view.getByRole('form', { name: /^Sold here/ });
  await form.getByLabel('Show').selectOption({ label: `${show} (${formatDay('2026-11-28')})` });
  return form;
}

/** Nothing left to sell on the counter view: no Sold here, no price cut, no reactivation. */
async function expectNothingToSell(view: Locator) {
  await expect(view.getByRole('button', { name: 'Sold here' })).toHaveCount(0);
  await expect(view.getByRole('button', { name: /^−\d+%/ })).toHaveCount(0);
  await expect(view.getByRole('button', { name: 'Reactivate' })).toHaveCount(0);
  await expect(view.getByRole('button', { name: 'Deactivate' })).toHaveCount(0);
}

const showName = async (key: string) =>
  ((await (await fetch(at(`/hub/shows/${key}`))).json()) as { show: { name: string } }).show.name;

test('a reload with no network opens the dashboard with the kept catalogue, and says it is offline', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  context = await browser.newContext();
  const page = await context.newPage();
  await warm(page);
  const summary = await page
    .getByRole('status')
    .filter({ hasText: / of \d+ listings/ })
    .textContent();
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Listings', level: 1 })).toBeVisible();
  await expect(page.getByText('Offline: no network.')).toBeVisible({ timeout: 20_000 });
  const count = /of (\d+) listings/.exec(summary ?? '')![1]!;
  await expect(page.getByRole('status').filter({ hasText: / of \d+ listings/ })).toContainText(
    `of ${count} listings`,
  );
  // The dashboard's overview opens too, from a page never opened here before.
  await page.goto(at('/'));
  await expect(page.getByRole('link', { name: 'Slabdesk' })).toBeVisible();
  await expect(page.getByText('Offline: no network.')).toBeVisible();
});

test('a list opened after the network drops draws its kept rows, its saved views unread', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await warm(page);
  // The orders are kept (the header's count read them); their saved views were never read.
  await expect
    .poll(() => page.evaluate(() => document.querySelector('nav')?.textContent ?? ''), {
      timeout: 30_000,
    })
    .toMatch(/Ship to the hub\s*\d/);
  await context.setOffline(true);
  await expect(page.getByText('Offline: no network.')).toBeVisible({ timeout: 20_000 });
  await page.getByRole('navigation').getByRole('link', { name: 'Orders', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Orders', level: 1 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Orders' }).getByRole('row').nth(1)).toBeVisible({
    timeout: 20_000,
  });
});

test('"Sold here" offline is sent exactly once after reconnecting, and the ledger holds it', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const listing = active[0]!;
  const show = await showWithCase(app.url, [listing]);
  context = await browser.newContext();
  const page = await context.newPage();
  await warm(page);
  const title = await titleOf(page, listing);
  await page.goto(at(`/shows/${show}`));
  await expect(page.getByRole('heading', { name: 'The case' })).toBeVisible();
  await context.setOffline(true);
  await sellHere(page, title, '180');
  await expect(page.getByText('Saved on this phone')).toBeVisible();
  await expect(page.getByRole('heading', { name: '1 change waiting' })).toBeVisible();
  // Still on sale: nothing went out.
  expect((await sandboxListing(listing)).status).toBe('active');
  // A reload offline keeps it waiting (the outbox is in IndexedDB).
  await page.reload();
  await expect(page.getByRole('heading', { name: '1 change waiting' })).toBeVisible();
  await context.setOffline(false);
  await expect(
    page.getByRole('status').filter({ hasText: 'Taken off the marketplace and recorded' }),
  ).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole('heading', { name: '0 changes waiting' })).toBeVisible();
  expect(await sandboxListing(listing)).toMatchObject({
    status: 'archived',
    unavailable_reason: 'deactivated_by_seller',
  });
  // Once: one deactivation through the proxy, one ledger entry; a reload sends nothing again.
  await page.reload();
  await expect(page.getByText('Cash taken')).toBeVisible();
  await expect.poll(() => deactivations(listing)).toBe(1);
  const { entries } = await ledger(show);
  expect(entries).toEqual([
    expect.objectContaining({ listingId: listing, priceCents: 18_000, soldOnline: false }),
  ]);
  // The ledger's row (the case's row says how it sold too).
  const sale = page
    .getByRole('table', { name: 'Sales at this show' })
    .getByRole('row')
    .filter({ hasText: title })
    .filter({ hasText: 'Cash' });
  await expect(sale).toContainText('$180.00');
});

test('a card sold online while the sale waited is shown as a conflict, loudly', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const listing = active[1]!;
  const show = await showWithCase(app.url, [listing]);
  context = await browser.newContext();
  const page = await context.newPage();
  await warm(page);
  const title = await titleOf(page, listing);
  await page.goto(at(`/shows/${show}`));
  await expect(page.getByRole('heading', { name: 'The case' })).toBeVisible();
  await context.setOffline(true);
  await sellHere(page, title, '95.50');
  await expect(page.getByText('Saved on this phone')).toBeVisible();
  // Meanwhile a buyer online buys it.
  const sold = await fetch(`${sandbox.url}/_sandbox/listings/${listing}/sell`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(sold.status).toBe(200);
  await context.setOffline(false);
  await expect(page.getByRole('alert').filter({ hasText: 'sold twice' }).first()).toBeVisible({
    timeout: 30_000,
  });
  await expect(
    page.getByText('SOLD ONLINE TOO: settle with the buyer at the table.'),
  ).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Conflict: settle it' })).toBeVisible();
  const { entries } = await ledger(show);
  expect(entries).toEqual([
    expect.objectContaining({ listingId: listing, soldOnline: true, offMarket: 'sold_online' }),
  ]);
  // Never written over: the order stands, the listing stays sold.
  expect((await sandboxListing(listing)).unavailable_reason).toBe('sold');
});

test('on a phone: two slabs in a row sold at their own prices; the same slab scanned again is sold, on this phone and a second one', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const [a, b] = await slabs(2);
  expect(b!.price).not.toBe(a!.price);
  const show = await showWithCase(app.url, []);
  const hall = await showName(show);
  context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(at('/'));

  let view = await scan(page, a!.cert);
  let form = await openSale(view, hall);
  await expect(form.getByLabel('Sold for ($)')).toHaveValue(a!.price);
  await form.getByLabel('Sold for ($)').fill('250');
  await form.getByRole('button', { name: 'Record the sale' }).click();
  await expect(view.getByText('Taken off the marketplace and recorded in the ledger.')).toBeVisible(
    {
      timeout: 30_000,
    },
  );

  // The next slab: its own price, nothing of the last one's.
  view = await scan(page, b!.cert);
  await expect(view.getByText(/Price now/)).toHaveCount(0);
  await expect(view.getByRole('form', { name: /^Sold here/ })).toHaveCount(0);
  form = await openSale(view, hall);
  await expect(form.getByLabel('Sold for ($)')).toHaveValue(b!.price);
  // A new price: the sale form offers it.
  await view.getByRole('textbox', { name: 'New price' }).fill('265');
  await view.getByRole('button', { name: 'Set price' }).click();
  await expect(view.getByText('Price now $265.00.')).toBeVisible({ timeout: 30_000 });
  await expect(form.getByLabel('Sold for ($)')).toHaveValue('265.00');
  await form.getByRole('button', { name: 'Record the sale' }).click();
  await expect(view.getByText('Taken off the marketplace and recorded in the ledger.')).toBeVisible(
    {
      timeout: 30_000,
    },
  );

  // The first slab scanned again: sold, said first, nothing to sell.
  view = await scan(page, a!.cert);
  await expect(view.getByText(new RegExp(`^Sold at ${hall} on`))).toContainText(
    'for $250.00 cash.',
  );
  await expectNothingToSell(view);
  await page.screenshot({ path: 'test/e2e/screenshots/counter-sold-at-show.png' });

  // A second phone at the table scans it: the ledger says so there too.
  second = await browser.newContext(PHONE);
  const other = await second.newPage();
  await other.goto(at('/'));
  const there = await scan(other, a!.cert);
  await expect(there.getByText(new RegExp(`^Sold at ${hall} on`))).toContainText(
    'for $250.00 cash.',
    {
      timeout: 30_000,
    },
  );
  await expectNothingToSell(there);

  // And the ledger refuses a second sale sent to it directly.
  const direct = await fetch(at(`/hub/shows/${show}/entries`), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      key: randomUUID(),
      soldAt: new Date().toISOString(),
      listingId: a!.id,
      title: 'Sold again',
      price: '240.00',
      soldOnline: false,
      offMarket: 'deactivated',
    }),
  });
  expect(direct.status).toBe(409);
  expect(((await direct.json()) as { svc_error: { code: string } }).svc_error.code).toBe(
    'already_sold_at_show',
  );
  const { entries } = await ledger(show);
  expect(entries.map((entry) => [entry.listingId, entry.priceCents])).toEqual([
    [a!.id, 25_000],
    [b!.id, 26_500],
  ]);
});

test('a second phone sells offline a slab the first phone sold: the ledger refuses it on reconnecting, held and named', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const [slab] = await slabs(3);
  const show = await showWithCase(app.url, []);
  const hall = await showName(show);
  // The second phone has the slab's counter view open, then loses the network.
  second = await browser.newContext(PHONE);
  const late = await second.newPage();
  await late.goto(at('/'));
  const lateView = await scan(late, slab!.cert);
  await expect(lateView.getByRole('button', { name: 'Sold here' })).toBeVisible();
  await second.setOffline(true);
  // Meanwhile the first phone sells it.
  context = await browser.newContext(PHONE);
  const first = await context.newPage();
  await first.goto(at('/'));
  const firstView = await scan(first, slab!.cert);
  const firstForm = await openSale(firstView, hall);
  await firstForm.getByLabel('Sold for ($)').fill('300');
  await firstForm.getByRole('button', { name: 'Record the sale' }).click();
  await expect(
    firstView.getByText('Taken off the marketplace and recorded in the ledger.'),
  ).toBeVisible({ timeout: 30_000 });
  // The second phone, offline, sells it too: it waits in the outbox.
  const lateForm = await openSale(lateView, hall);
  await lateForm.getByLabel('Sold for ($)').fill('210');
  await lateForm.getByRole('button', { name: 'Record the sale' }).click();
  await expect(lateView.getByText(/Saved on this phone/).first()).toBeVisible();
  await second.setOffline(false);
  const held = lateView.getByRole('alert').filter({ hasText: 'Not recorded' });
  await expect(held).toContainText(
    `This slab was already sold at ${hall} on Nov 28, 2026 for $300.00 cash`,
    { timeout: 30_000 },
  );
  await expect(lateView.getByText(new RegExp(`^Sold at ${hall} on`))).toContainText(
    'for $300.00 cash.',
  );
  await expectNothingToSell(lateView);
  // Nothing lost: the refused sale stays on the phone until the seller settles it.
  await late.goto(at(`/shows/${show}`));
  const row = late.getByRole('row').filter({ hasText: 'Conflict: settle it' });
  await expect(row).toContainText('already sold at');
  await expect(row.getByRole('button', { name: 'Settled' })).toBeVisible();
  const { entries } = await ledger(show);
  expect(entries.map((entry) => [entry.listingId, entry.priceCents])).toEqual([[slab!.id, 30_000]]);
});

test('a new price set offline meets a price changed meanwhile: a conflict, not written over', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const listing = active[2]!;
  const show = await showWithCase(app.url, [listing]);
  context = await browser.newContext();
  const page = await context.newPage();
  await warm(page);
  const title = await titleOf(page, listing);
  await page.goto(at(`/shows/${show}`));
  await expect(page.getByRole('heading', { name: 'The case' })).toBeVisible();
  await context.setOffline(true);
  await page.getByRole('textbox', { name: `New price for ${title}` }).fill('123.45');
  await page.getByRole('button', { name: `Set new price for ${title}`, exact: false }).click();
  await expect(page.getByText('New price waiting to be sent')).toBeVisible();
  // Meanwhile someone else changes the price (straight at the marketplace).
  const other = await atMarketplace(`/listings/${listing}.json`, {
    method: 'PUT',
    body: JSON.stringify({ listing: { price: '777.00' } }),
  });
  expect(other.status).toBe(200);
  await context.setOffline(false);
  const conflict = page.getByRole('row').filter({ hasText: 'Conflict: settle it' });
  await expect(conflict).toContainText('changed to $777.00 by someone else', { timeout: 30_000 });
  expect((await sandboxListing(listing)) as unknown as { price: string }).toMatchObject({
    price: '777.00',
  });
  // The seller settles it: theirs goes over, knowingly.
  await conflict.getByRole('button', { name: 'Send my price anyway' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Price set to $123.45.' })).toBeVisible();
  expect((await sandboxListing(listing)) as unknown as { price: string }).toMatchObject({
    price: '123.45',
  });
});

test('sign-out leaves nothing of the account in the browser’s storage', async ({ browser }) => {
  test.setTimeout(120_000);
  context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(at('/listings', signedIn));
  await page.getByLabel('Name').fill(OWNER.name);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await warm(page, signedIn);
  const stored = () =>
    page.evaluate(async () => ({
      databases: (await indexedDB.databases()).map((db) => db.name),
      caches: await caches.keys(),
      local: localStorage.length,
      session: sessionStorage.length,
    }));
  const before = await stored();
  expect(before.databases).toContain('slabdesk-kept');
  expect(before.caches).toContain('slabdesk-pages');
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in(\?|$)/);
  await expect
    .poll(async () => {
      const after = await stored();
      return {
        databases: after.databases.filter((name) => name?.startsWith('slabdesk')),
        pages: after.caches.filter((name) => !name.startsWith('slabdesk-shell-')),
        local: after.local,
        session: after.session,
      };
    })
    .toEqual({ databases: [], pages: [], local: 0, session: 0 });
  // And offline, a signed-out visitor gets no dashboard from the worker.
  await context.setOffline(true);
  const opened = await page.goto(at('/listings', signedIn)).then(
    (response) => response?.status() ?? 0,
    () => 0,
  );
  expect(opened).not.toBe(200);
});

test('a repeat visit with the service worker loads no app code from the network', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  context = await browser.newContext();
  const page = await context.newPage();
  await warm(page);
  const fromNetwork: string[] = [];
  page.on('requestfinished', (request) => {
    const url = new URL(request.url());
    if (!/\.(js|css)$/.test(url.pathname)) return;
    void request.response().then((response) => {
      if (response && !response.fromServiceWorker()) fromNetwork.push(url.pathname);
    });
  });
  // Code the worker served: seen as requests answered by it.
  let served = 0;
  page.on('response', (response) => {
    if (/\.(js|css)$/.test(new URL(response.url()).pathname) && response.fromServiceWorker())
      served++;
  });
  await page.goto(at('/orders'));
  await expect(page.getByRole('heading', { name: 'Orders', level: 1 })).toBeVisible();
  await page.goto(at('/insights'));
  await expect(page.getByRole('heading', { name: 'Insights', level: 1 })).toBeVisible();
  expect(served).toBeGreaterThan(0);
  expect(fromNetwork).toEqual([]);
});

test('a card taken in trade offers its agreed value as its cost on New listing', async ({
  browser,
}) => {
  const show = await showWithCase(app.url, []);
  const sale = await fetch(at(`/hub/shows/${show}/entries`), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      key: randomUUID(),
      soldAt: new Date().toISOString(),
      listingId: active[3]!,
      title: 'A card sold for a trade',
      price: '300.00',
      tradeIn: { title: '2003 Topps Chrome LeBron James', certNumber: '87654321', value: '120.00' },
      soldOnline: false,
      offMarket: 'deactivated',
    }),
  });
  expect(sale.status).toBe(201);
  context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(at('/listings/new'));
  await page.getByLabel('Cert number').fill('87654321');
  await expect(page.getByRole('note').filter({ hasText: 'Taken in trade at' })).toContainText(
    'for $120.00: that is this card’s cost',
  );
});

test('installable: Chromium finds no installability error (manifest, icons, service worker)', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  context = await browser.newContext();
  const page = await context.newPage();
  await warm(page);
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: { errorId: string }[];
  };
  // A test browser's context is incognito-like, which Chromium reports on its own: every other
  // check (manifest, icons, service worker, secure origin) must pass.
  expect(installabilityErrors.filter((error) => error.errorId !== 'in-incognito')).toEqual([]);
  const manifest = (await (await page.request.get(at('/manifest.webmanifest'))).json()) as {
    icons: { sizes: string }[];
  };
  expect(manifest.icons.map((icon) => icon.sizes)).toEqual(
    expect.arrayContaining(['192x192', '512x512']),
  );
});
