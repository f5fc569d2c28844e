import { expect, test, type Locator, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { findDemoRecords, type DemoRecords } from './demo-records';
import { expectNoAxeViolations, framesDrawn } from './support';

/**
 * Every page at a phone's 390×844 and a desk's 1280×800: no sideways scroll of the page (the bulk
 * grid scrolls in its own box), axe with zero violations, and a full-page screenshot of each under
 * test/e2e/screenshots/layout/ (git-ignored).
 */

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desk', width: 1280, height: 800 },
] as const;

interface PageCase {
  name: string;
  path: (found: DemoRecords) => string;
  ready: (page: Page) => Locator;
}

const PAGES: PageCase[] = [
  {
    name: 'overview',
    path: () => '/',
    ready: (page) => page.getByRole('heading', { name: 'Overview', level: 1 }),
  },
  {
    name: 'listings',
    path: () => '/listings',
    ready: (page) => page.getByRole('table', { name: 'Listings' }).getByRole('link').first(),
  },
  {
    name: 'listing-detail',
    path: (found) => `/listings/${found.listing}`,
    ready: (page) => page.getByRole('link', { name: 'Edit listing' }),
  },
  {
    name: 'listing-edit',
    path: (found) => `/listings/${found.listing}/edit`,
    ready: (page) => page.getByRole('form', { name: 'Edit listing' }).getByLabel('Price (USD)'),
  },
  {
    name: 'new-listing',
    path: () => '/listings/new',
    ready: (page) => page.getByRole('heading', { name: 'New listing', level: 1 }),
  },
  {
    name: 'orders',
    path: () => '/orders',
    ready: (page) => page.getByRole('table', { name: 'Orders' }).getByRole('link').first(),
  },
  {
    name: 'order-detail',
    path: (found) => `/orders/${found.order}`,
    ready: (page) => page.getByRole('list', { name: 'Order timeline' }),
  },
  {
    name: 'inventory',
    path: () => '/inventory',
    ready: (page) => page.getByRole('table', { name: 'Inventory' }).getByRole('row').nth(1),
  },
  {
    name: 'locations',
    path: () => '/locations',
    ready: (page) => page.getByRole('heading', { name: 'Locations', level: 1 }),
  },
  {
    name: 'events',
    path: () => '/events',
    ready: (page) => page.getByRole('heading', { name: 'Events', level: 1 }),
  },
  {
    name: 'bulk-edit',
    path: (found) => `/listings/bulk-edit?ids=${found.listing}`,
    ready: (page) => page.getByRole('table', { name: /^Bulk edit grid, 1 listings?$/ }),
  },
];

/** How far the page scrolls sideways: the document's width beyond the window's. */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test.describe('every page at a phone’s and a desk’s size', () => {
  test.beforeEach(({ page }) => {
    page.on('pageerror', (error) => {
      throw error;
    });
  });

  for (const size of SIZES) {
    for (const entry of PAGES) {
      test(`${entry.name} at ${size.width}×${size.height}: no sideways scroll, no axe violation, a screenshot`, async ({
        page,
      }) => {
        await page.setViewportSize({ width: size.width, height: size.height });
        await page.goto(entry.path(await findDemoRecords()));
        await expect(entry.ready(page)).toBeVisible({ timeout: 20_000 });
        await page.waitForLoadState('networkidle');
        await expect(page.locator('main')).toHaveAttribute('aria-busy', 'false');
        // The bulk grid too: it scrolls in its own box, the page never sideways.
        expect(await overflow(page)).toBeLessThanOrEqual(0);
        await expectNoAxeViolations(page);
        mkdirSync('test/e2e/screenshots/layout', { recursive: true });
        await page.screenshot({
          path: `test/e2e/screenshots/layout/${size.name}-${entry.name}.png`,
          fullPage: true,
        });
      });
    }
  }
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the navigation folds behind Menu; the one status stays in view, the bucket behind it', async ({
    page,
  }) => {
    await page.goto('/listings');
    const inView = async (locator: Locator) => {
      const box = (await locator.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    };
    const status = page.getByRole('button', { name: /^Live key · / });
    await expect(status).toBeVisible();
    await inView(status);
    await status.click();
    const meter = page.getByRole('meter', { name: /API capacity/ });
    await expect(meter).toBeVisible();
    await inView(meter);
    await page.keyboard.press('Escape');

    const nav = page.getByRole('navigation', { name: 'Main' });
    const menu = page.getByRole('button', { name: 'Menu' });
    await expect(nav.getByRole('link', { name: 'Orders' })).toBeHidden();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await inView(nav.getByRole('link', { name: 'Orders' }));
    await nav.getByRole('link', { name: 'Orders' }).click();
    await expect(page.getByRole('heading', { name: 'Orders', level: 1 })).toBeVisible();
    // A new page closes the menu.
    await expect(nav.getByRole('link', { name: 'Listings' })).toBeHidden();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
  });

  test('listings read as cards: title, price, status, grade and cert, with the same checkbox and link', async ({
    page,
  }) => {
    await page.goto('/listings');
    const table = page.getByRole('table', { name: 'Listings' });
    const row = table.getByRole('row').nth(1);
    await expect(row.getByRole('link')).toBeVisible({ timeout: 20_000 });
    await expect(row.getByRole('checkbox', { name: /^Select / })).toBeVisible();
    const box = (await row.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(390);
    // The figures a seller needs are shown, each under its header's name; the rest are left out.
    const cell = (label: string) => row.locator(`td[data-label="${label}"]`);
    for (const label of ['Price', 'Status', 'Grade', 'Cert']) {
      await expect(cell(label)).toBeVisible();
      const text = await cell(label).evaluate((e) => getComputedStyle(e, '::before').content);
      expect(text).toBe(`"${label}: "`);
    }
    await expect(row.locator('td.card-hidden').first()).toBeHidden();
    await expect(cell('Price')).toHaveText(/\$[\d,]+\.\d\d/);
    // The title is not squeezed: the link shows at least 20 characters' width.
    const title = (await row.getByRole('link').boundingBox())!;
    expect(title.width).toBeGreaterThan(150);
    // The checkbox still selects.
    await row.getByRole('checkbox').check();
    await expect(page.getByText(/1 selected/)).toBeVisible();
  });

  test('orders read as cards with the order link, total and stage', async ({ page }) => {
    await page.goto('/orders');
    const row = page.getByRole('table', { name: 'Orders' }).getByRole('row').nth(1);
    await expect(row.getByRole('link')).toBeVisible({ timeout: 20_000 });
    for (const label of ['Order', 'Total', 'Stage']) {
      await expect(row.locator(`td[data-label="${label}"]`)).toBeVisible();
    }
    await expect(row.locator('td[data-label="Sold"]')).toBeHidden();
    expect((await row.boundingBox())!.width).toBeLessThanOrEqual(390);
  });

  test('the order page puts its timeline and money in one column', async ({ page }) => {
    await page.goto('/orders');
    const link = page.getByRole('table', { name: 'Orders' }).getByRole('link').first();
    await link.click();
    const timeline = page.getByRole('list', { name: 'Order timeline' });
    await expect(timeline).toBeVisible();
    const money = page.getByRole('region', { name: 'Money' });
    const a = (await timeline.boundingBox())!;
    const b = (await money.boundingBox())!;
    expect(b.y).toBeGreaterThanOrEqual(a.y + a.height);
  });
});

test('at 1280×800 a long status pill is shown whole, not clipped', async ({ page }) => {
  await page.goto('/listings?status=archived');
  const table = page.getByRole('table', { name: 'Listings' });
  await expect(table.getByRole('link').first()).toBeVisible({ timeout: 20_000 });
  const pills = table.locator('.pill');
  await expect(pills.filter({ hasText: 'Ended by you' }).first()).toBeVisible();
  const clipped = await pills.evaluateAll((elements) =>
    elements
      .filter((pill) => {
        const cell = pill.closest('td')!.getBoundingClientRect();
        const box = pill.getBoundingClientRect();
        return (
          pill.scrollWidth > pill.clientWidth ||
          box.right > cell.right + 0.5 ||
          box.bottom > cell.bottom + 0.5 ||
          box.top < cell.top - 0.5
        );
      })
      .map((pill) => pill.textContent),
  );
  expect(clipped).toEqual([]);
});

test('the page paints with its inline stylesheet, allowed by the policy, and breaks no rule of it', async ({
  page,
}) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  const response = await page.goto('/');
  // The stylesheet is in the page (no render-blocking request), allowed by its hash.
  expect(await response!.text()).toContain('<style>');
  expect(response!.headers()['content-security-policy']).toMatch(/style-src 'self' 'sha256-/);
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await expect(page.locator('.topbar')).toHaveCSS('display', 'flex');
  expect(
    await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
  ).toEqual([]);
});

/** Layout shifts so far (the browser's own record), each with the elements it moved. */
const LAYOUT_SHIFTS = `window.__shifts`;
const RECORD_SHIFTS = `window.__shifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    window.__shifts.push({ value: entry.value, moved: entry.sources.map((s) => s.node && (s.node.id || s.node.className || s.node.nodeName)) });
  }
}).observe({ type: 'layout-shift', buffered: true });`;

for (const path of ['/', '/listings']) {
  test(`${path} on a phone: the seller's id coming in moves nothing below the header`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.addInitScript({ content: RECORD_SHIFTS });
    // The /ping answer (the seller's id) comes after the page is drawn, as on a slow network.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/2026-07\/ping/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const header = page.getByRole('banner');
    const status = header.getByRole('button', { name: /^Live key · / });
    await expect(status).toBeVisible();
    await status.click();
    const details = header.getByRole('group', { name: 'Connection details' });
    await expect(details.getByText(/^slr_/)).toHaveCount(0);
    release();
    await expect(details.getByText(/^slr_/)).toBeVisible();
    await framesDrawn(page);
    const shifts = (await page.evaluate(LAYOUT_SHIFTS)) as { value: number; moved: string[] }[];
    expect(shifts.filter((shift) => shift.moved.includes('main'))).toEqual([]);
  });
}

for (const width of [390, 1280]) {
  test(`the overview at ${width} px: Money is drawn as its frame before the orders are in, and filling it moves nothing`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 844 });
    await page.addInitScript({ content: RECORD_SHIFTS });
    // Every read of the orders (the hub's change feed) waits until the frame is drawn.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/hub\/replica\/orders/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/');
    const money = page.getByRole('region', { name: 'Money' });
    await expect(money.getByText('Last 30 days', { exact: true })).toBeVisible();
    // No figure is guessed while the orders are on their way: each one is "…", the panel busy.
    await expect(money).toHaveAttribute('aria-busy', 'true');
    await expect(money.locator('dd').first()).toHaveText('…');
    await expect(money.getByRole('status')).toHaveText('Loading orders…');
    await expect(page.getByRole('region', { name: 'Work' })).toHaveCount(0);
    // The header's status settles first (the update stream connects after the first paint, and
    // its words move the status's caret): what moves after this is the orders' doing.
    await expect(
      page.getByRole('banner').getByRole('button', { name: /^Live key · updates / }),
    ).toBeVisible();
    await framesDrawn(page);
    const before = (await page.evaluate(LAYOUT_SHIFTS)) as unknown[];
    release();
    await expect(money.locator('dd').first()).toHaveText(/^\$[\d,]+\.\d{2}$/);
    await expect(money).not.toHaveAttribute('aria-busy');
    await expect(page.getByRole('region', { name: 'Work' })).toBeVisible();
    await framesDrawn(page);
    const shifts = (await page.evaluate(LAYOUT_SHIFTS)) as unknown[];
    expect(shifts.slice(before.length)).toEqual([]);
  });
}
