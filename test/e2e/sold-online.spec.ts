import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  DEMO_LIVE_TOKEN,
  DEMO_SELLER_ID,
  startSandbox,
  type RunningSandbox,
} from '../../src/sandbox';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { expectNoAxeViolations } from './support';

/**
 * Issue 51, point 6, at the table: a phone (390 × 844) has Slabdesk open; a slab of today's show
 * case sells online (the sandbox's own sale, its webhooks to the server); the phone says so at
 * once, on any page, until the seller dismisses it, and a dismissed alert does not come back with
 * a reload. On the production build, a sandbox and a server of its own.
 */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

const root = resolve(import.meta.dirname, '../..');
let sandbox: RunningSandbox;
let app: RunningAppServer;
let slabs: { id: string; title: string; cert: string }[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  sandbox = await startSandbox({ port: 0, db: ':memory:', seed: 'demo' });
  app = await startAppServer(
    {
      upstream: { baseUrl: sandbox.url, apiKey: DEMO_LIVE_TOKEN },
      port: 0,
      hub: { registerWith: { sandboxUrl: sandbox.url, sellerId: DEMO_SELLER_ID } },
      activity: { path: ':memory:' },
    },
    async () => distPages(resolve(root, 'dist/page')),
  );
  await app.replica.ready();
  const answer = await fetch(`${sandbox.url}/2026-07/listings.json?status=active&limit=20`, {
    headers: { 'X-Service-Access-Token': DEMO_LIVE_TOKEN },
  });
  const { listings } = (await answer.json()) as {
    listings: { id: string; is_lot: boolean; unavailable_reason?: string | null }[];
  };
  slabs = listings
    .filter((listing) => !listing.unavailable_reason && !listing.is_lot)
    .slice(0, 3)
    .map((listing) => {
      const row = app.replica.store.row('listings', listing.id)!.body as {
        title: string;
        card: { cert_number: string };
      };
      return { id: listing.id, title: row.title, cert: row.card.cert_number };
    });
  // Today's show, these slabs in its case.
  const key = randomUUID();
  const today = new Date().toISOString().slice(0, 10);
  const made = await fetch(`${app.url}/hub/shows`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key, name: 'Philly Card Show', date: today }),
  });
  expect(made.status).toBe(201);
  const marked = await fetch(`${app.url}/hub/shows/${key}/case`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ listingIds: slabs.map((slab) => slab.id) }),
  });
  expect(marked.status).toBe(200);
});

test.afterAll(async () => {
  await app?.close();
  await sandbox?.close();
});

async function sellOnline(listingId: string) {
  const sold = await fetch(`${sandbox.url}/_sandbox/listings/${listingId}/sell`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(sold.status).toBe(200);
}

const words = (slab: { title: string; cert: string }) =>
  `Sold online: pull ${slab.title} (cert ${slab.cert}) from the table`;

/** The page's event stream is open: the header says updates arrive as they happen. */
async function listening(page: Page) {
  await expect(page.getByRole('button', { name: /updates on/ })).toBeVisible({ timeout: 30_000 });
}

test('an open phone is told at once when a case slab sells online, until the seller dismisses it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const [first, second] = [slabs[0]!, slabs[1]!];
  await page.goto(`${app.url}/shows`);
  await expect(page.getByRole('heading', { name: 'Card shows', level: 1 })).toBeVisible();
  await listening(page);

  await sellOnline(first.id);
  const alert = page.getByRole('alert').filter({ hasText: words(first) });
  await expect(alert).toBeVisible({ timeout: 30_000 });
  await expect(alert).toContainText('Philly Card Show');

  // On any page, until dismissed: another page, opened anew, still says it.
  await page.goto(`${app.url}/orders`);
  await expect(page.getByRole('alert').filter({ hasText: words(first) })).toBeVisible({
    timeout: 30_000,
  });
  // Whole on a phone: no sideways scroll, the button a thumb's size.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const dismiss = page.getByRole('button', { name: `Dismiss: ${first.title} pulled` });
  const box = (await dismiss.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(44);
  expect(box.height).toBeGreaterThanOrEqual(44);
  await expectNoAxeViolations(page);

  // Its link opens the slab's counter view.
  await page
    .getByRole('alert')
    .filter({ hasText: words(first) })
    .getByRole('link', { name: 'Open its counter view' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/show/cert/${first.cert}`));

  await dismiss.click();
  await expect(page.getByRole('alert').filter({ hasText: words(first) })).toHaveCount(0);

  // A reload: the stream opens again and is given the alerts of the last days; the dismissed one
  // stays hidden. The next sale, told on that same stream after its greeting, shows alone.
  await page.reload();
  await listening(page);
  await sellOnline(second.id);
  await expect(page.getByRole('alert').filter({ hasText: words(second) })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole('alert').filter({ hasText: words(first) })).toHaveCount(0);
});

test.describe('the Shows page’s push setting', () => {
  test('says plainly when this page cannot be told while closed (no offline worker)', async ({
    page,
  }) => {
    // The suites' default blocks service workers: no worker, no Web Push.
    await page.goto(`${app.url}/shows`);
    const setting = page.getByRole('form', { name: 'When the app is closed' });
    await expect(setting).toContainText('its offline files are not installed');
    await expect(
      setting.getByRole('checkbox', { name: 'Tell this phone when a case slab sells online' }),
    ).toHaveCount(0);
  });

  test.describe('with the offline worker', () => {
    test.use({ serviceWorkers: 'allow' });

    test('asks permission only on the press, and says so when notifications are blocked', async ({
      page,
    }) => {
      await page.goto(`${app.url}/shows`);
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await page.reload();
      const setting = page.getByRole('form', { name: 'When the app is closed' });
      const box = setting.getByRole('checkbox', {
        name: 'Tell this phone when a case slab sells online',
      });
      await expect(box).not.toBeChecked();
      expect(await page.evaluate(() => Notification.permission)).toBe('default');
      // The label is the tap target: 44 px tall at least.
      const label = (await setting.locator('label').boundingBox())!;
      expect(label.height).toBeGreaterThanOrEqual(44);
      // The browser refuses (headless Chromium denies a prompt nobody answers).
      await box.click();
      await expect(setting).toContainText('Notifications are blocked for Slabdesk in this browser');
      await expect(box).not.toBeChecked();
      await expect(box).toBeDisabled();
    });
  });
});

test.describe('a push while Slabdesk is closed', () => {
  test.use({ serviceWorkers: 'allow' });

  test('the worker shows it as a notification naming the slab, carrying its counter view for the press', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['notifications'], { origin: app.url });
    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
      registrations.push(...event.registrations);
    });
    await cdp.send('ServiceWorker.enable');
    await page.goto(`${app.url}/shows`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await expect.poll(() => registrations.length).toBeGreaterThan(0);
    const registration = registrations.find((r) => r.scopeURL.startsWith(app.url))!;
    // What the hub sends (server/push/push-part.ts), as the push service hands it over.
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: new URL(app.url).origin,
      registrationId: registration.registrationId,
      data: JSON.stringify({
        title: 'Sold online: pull it from the table',
        body: 'Mbappé #77 BGS 7.5 (cert 7929686819) sold online. Pull it from the Philly Card Show table.',
        url: '/show/cert/7929686819?grader=BGS',
        tag: 'lst_pushed',
      }),
    });
    const shown = () =>
      page.evaluate(async () => {
        const worker = await navigator.serviceWorker.ready;
        return (await worker.getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          data: n.data as unknown,
        }));
      });
    await expect.poll(shown, { timeout: 15_000 }).toEqual([
      {
        title: 'Sold online: pull it from the table',
        body: 'Mbappé #77 BGS 7.5 (cert 7929686819) sold online. Pull it from the Philly Card Show table.',
        tag: 'lst_pushed',
        data: { url: '/show/cert/7929686819?grader=BGS' },
      },
    ]);
  });
});
