import { expect, test, type Page } from '@playwright/test';
import { findDemoRecords, type DemoRecords } from './demo-records';
import { framesDrawn } from './support';

/**
 * A page that stands still and a phone that shows slabs: every page's cold load shifts the layout
 * by at most 0.05 (the browser's own `layout-shift` record) at a phone's and a desk's size; on a
 * phone Listings and Orders show their first row on the first screen, and no visible control is
 * under 44 × 44 px; at a desk the bulk grid's rows each name a distinct grade and cert.
 */

const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

const PAGES: { name: string; path: (found: DemoRecords) => string }[] = [
  { name: 'overview', path: () => '/' },
  { name: 'insights', path: () => '/insights' },
  { name: 'listings', path: () => '/listings' },
  { name: 'listing', path: (found) => `/listings/${found.listing}` },
  { name: 'listing edit', path: (found) => `/listings/${found.listing}/edit` },
  { name: 'new listing', path: () => '/listings/new' },
  { name: 'bulk edit', path: () => '/listings/bulk-edit?status=draft' },
  { name: 'orders', path: () => '/orders' },
  { name: 'order', path: (found) => `/orders/${found.order}` },
  { name: 'ship queue', path: () => '/ship-queue' },
  { name: 'payouts', path: () => '/payouts' },
  { name: 'inventory', path: () => '/inventory' },
  { name: 'locations', path: () => '/locations' },
  { name: 'events', path: () => '/events' },
  { name: 'activity', path: () => '/activity' },
];

/** The session's layout shift (no input), as Chrome counts it, and what moved in each shift. */
const RECORD_SHIFTS = `window.__cls = { total: 0, moved: [] };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.hadRecentInput) continue;
    window.__cls.total += entry.value;
    window.__cls.moved.push(entry.value.toFixed(3) + ' ' + entry.sources.map((s) => s.node && (s.node.id || s.node.className || s.node.nodeName)).join(', '));
  }
}).observe({ type: 'layout-shift', buffered: true });`;

/** Loaded and settled: the page's reads answered and drawn. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('main')).toHaveAttribute('aria-busy', 'false');
  await framesDrawn(page);
}

for (const size of SIZES) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });
    for (const entry of PAGES) {
      test(`${entry.name}: a cold load shifts the layout by at most 0.05`, async ({ page }) => {
        await page.addInitScript({ content: RECORD_SHIFTS });
        await page.goto(entry.path(await findDemoRecords()));
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({
          timeout: 20_000,
        });
        await settle(page);
        const cls = (await page.evaluate('window.__cls')) as { total: number; moved: string[] };
        console.log(`layout shift ${entry.name} at ${size.width}: ${cls.total.toFixed(3)}`);
        expect(cls.total, cls.moved.join('\n')).toBeLessThanOrEqual(0.05);
      });
    }
  });
}

/**
 * Every visible control under 44 × 44 px: a checkbox or field counts its label's box when the
 * label is bigger (the label is its hit area); a link inside a sentence is left out (WCAG's
 * inline exception).
 */
const SMALL_TARGETS = `(() => {
  const small = [];
  for (const el of document.querySelectorAll('button, a[href], input:not([type=hidden]), select, summary, textarea')) {
    if (el.closest('.visually-hidden, dialog:not([open])') || el.classList.contains('skip-link')) continue;
    if (el.tagName === 'A' && el.closest('p')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    let box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const label = el.closest('label');
    if (label) {
      const around = label.getBoundingClientRect();
      if (around.width * around.height > box.width * box.height) box = around;
    }
    if (box.width < 44 - 0.5 || box.height < 44 - 0.5) {
      small.push(el.tagName.toLowerCase() + ' "' + (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40) + '" ' + Math.round(box.width) + '×' + Math.round(box.height));
    }
  }
  return small;
})()`;

test.describe('on a phone’s 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const [path, table] of [
    ['/listings', 'Listings'],
    ['/orders', 'Orders'],
  ] as const) {
    test(`${path}: the first row is on the first screen and every control is 44 × 44 px or more`, async ({
      page,
    }) => {
      await page.goto(path);
      const firstRow = page.getByRole('table', { name: table }).getByRole('row').nth(1);
      await expect(firstRow.getByRole('link').first()).toBeVisible({ timeout: 20_000 });
      await settle(page);
      const box = (await firstRow.boundingBox())!;
      expect(box.y).toBeLessThan(844);
      const small = (await page.evaluate(SMALL_TARGETS)) as string[];
      expect(small, small.join('\n')).toEqual([]);
    });
  }

  test('Listings: saved views that answer after the catalogue move nothing', async ({ page }) => {
    // The account's views (saved on another device) answer once the catalogue is in.
    let answer!: () => void;
    const held = new Promise<void>((done) => (answer = done));
    await page.route(
      (url) => url.pathname === '/hub/views' && url.searchParams.get('table') === 'listings',
      async (route) => {
        await held;
        await route.fulfill({
          json: {
            views: [
              { name: 'Graded 10, under $50', search: 'grade=10' },
              { name: 'Stale drafts from last spring', search: 'status=draft' },
            ],
          },
        });
      },
    );
    const catalogueIn = page.waitForEvent('requestfinished', (request) =>
      /\/hub\/replica\/listings/.test(request.url()),
    );
    await page.addInitScript({ content: RECORD_SHIFTS });
    await page.goto('/listings');
    await catalogueIn;
    await expect(page.getByRole('button', { name: 'All listings' })).toBeVisible();
    await framesDrawn(page);
    answer();
    const tabs = page.getByRole('group', { name: 'Saved views of the listings' });
    const firstRow = page.getByRole('table', { name: 'Listings' }).getByRole('row').nth(1);
    await expect(firstRow.getByRole('link').first()).toBeVisible({ timeout: 20_000 });
    await settle(page);
    const cls = (await page.evaluate('window.__cls')) as { total: number; moved: string[] };
    expect(cls.total, cls.moved.join('\n')).toBeLessThanOrEqual(0.05);
    // Every view is on the screen, the row wrapped, nothing scrolling sideways.
    await expect(
      tabs.getByRole('button', { name: 'Stale drafts from last spring' }),
    ).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  });

  test('the header is one short row with one status; its details fold out', async ({ page }) => {
    await page.goto('/listings');
    const header = page.getByRole('banner');
    const status = header.getByRole('button', { name: /^Live key · / });
    await expect(status).toBeVisible();
    expect((await page.locator('.topbar').boundingBox())!.height).toBeLessThanOrEqual(60);
    // The seller and the API capacity are behind the status on a phone.
    await expect(header.getByRole('meter', { name: /API capacity/ })).toBeHidden();
    await status.click();
    const details = header.getByRole('group', { name: 'Connection details' });
    await expect(details.getByText('slr_demo', { exact: true })).toBeVisible();
    await expect(details.getByRole('meter', { name: /API capacity/ })).toBeVisible();
    const panel = (await details.boundingBox())!;
    expect(panel.x).toBeGreaterThanOrEqual(0);
    expect(panel.x + panel.width).toBeLessThanOrEqual(390);
    await page.keyboard.press('Escape');
    await expect(details).toBeHidden();
    await expect(status).toBeFocused();
  });

  test('Listings: search, then Filters in a sheet that keeps focus and closes on Escape; the filters in force as pills', async ({
    page,
  }) => {
    await page.goto('/listings');
    const table = page.getByRole('table', { name: 'Listings' });
    await expect(table.getByRole('link').first()).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('combobox', { name: 'Grader' })).toHaveCount(0);
    const filters = page.getByRole('button', { name: 'Filters' });
    await filters.click();
    const sheet = page.getByRole('dialog', { name: 'Filters' });
    await expect(sheet).toBeVisible();
    await sheet.getByRole('combobox', { name: 'Grader' }).selectOption('PSA');
    // Focus stays in the sheet: Tab from its last control comes back into it.
    for (let i = 0; i < 12; i++) await page.keyboard.press('Tab');
    expect(await sheet.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();
    await expect(filters).toBeFocused();
    await expect(filters).toHaveText('Filters (1)');
    await expect(page).toHaveURL(/grader=PSA/);
    const pills = page.getByRole('list', { name: 'Filters in force' });
    await expect(pills.getByRole('listitem')).toHaveText(['Grader: PSA×']);
    await page.getByRole('button', { name: 'Remove the filter Grader: PSA' }).click();
    await expect(pills).toHaveCount(0);
    await expect(page).not.toHaveURL(/grader=/);
  });

  test('the bulk editor shows each row’s price, and the preview its price and new price whole', async ({
    page,
  }) => {
    const found = await findDemoRecords();
    await page.goto(`/listings/bulk-edit?ids=${found.listings.slice(0, 4).join(',')}`);
    const grid = page.getByRole('table', { name: /^Bulk edit grid, \d+ listings?$/ });
    await expect(grid).toBeVisible({ timeout: 20_000 });
    const price = grid.getByRole('textbox', { name: 'Price, row 1', exact: true });
    const priceBox = (await price.boundingBox())!;
    expect(priceBox.x + priceBox.width).toBeLessThanOrEqual(390);
    await page.getByLabel('Price change', { exact: true }).selectOption('lower-percent');
    await page.getByLabel('Percent (%)').fill('10');
    await page.getByRole('button', { name: 'Apply price change' }).click();
    await page.getByRole('button', { name: 'Preview changes' }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect(preview.getByRole('columnheader', { name: 'Requests' })).toHaveCount(0);
    const pair = preview.locator('.change-values').first();
    await expect(pair).toHaveText(/^\$[\d,]+\.\d\d → \$[\d,]+\.\d\d$/);
    // Whole and on the screen: not cut, not past the phone's edge.
    const cut = await pair.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return (
        el.scrollWidth > el.clientWidth + 0.5 || box.right > window.innerWidth || box.height > 30
      );
    });
    expect(cut).toBe(false);
  });
});

test.describe('at a desk’s 1280×800', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('each bulk grid row on the first screen shows a distinct grade and cert', async ({
    page,
  }) => {
    await page.goto('/listings/bulk-edit?status=active');
    const grid = page.getByRole('table', { name: /^Bulk edit grid, \d+ listings?$/ });
    await expect(grid).toBeVisible({ timeout: 20_000 });
    const heads = grid.locator('tbody th[scope="row"]');
    await expect(heads.first()).toBeVisible();
    const rows = await heads.evaluateAll((cells) =>
      cells
        .filter((cell) => cell.getBoundingClientRect().top < window.innerHeight)
        .map((cell) => {
          const fact = (key: string) =>
            cell.querySelector(`[data-fact="${key}"]`)?.textContent?.replace(/^ · /, '') ?? '';
          // Shown whole: the cell does not cut its text.
          const cut = [...cell.querySelectorAll<HTMLElement>('.slab-fact')].some(
            (part) => part.getBoundingClientRect().right > cell.getBoundingClientRect().right + 0.5,
          );
          return { grade: fact('grade'), cert: fact('cert'), cut };
        }),
    );
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) {
      expect(row.grade).toMatch(/^\S+ \S+/);
      expect(row.cert).toMatch(/^cert \S+$/);
      expect(row.cut).toBe(false);
    }
    expect(new Set(rows.map((row) => row.cert)).size).toBe(rows.length);
  });

  test('the header is one row; its status names the key and the updates, the details behind it', async ({
    page,
  }) => {
    await page.goto('/orders');
    const header = page.getByRole('banner');
    const status = header.getByRole('button', { name: 'Live key · updates on' });
    await expect(status).toBeVisible({ timeout: 20_000 });
    await expect(header.getByRole('meter', { name: /API capacity/ })).toBeVisible();
    // Every link of the navigation in the row at a desk (none scrolled out of it).
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    // The count to ship is there after a direct load of a page that does not read orders itself.
    await page.goto('/locations');
    await expect(header.getByRole('link', { name: /^Ship to the hub \d+ waiting$/ })).toBeVisible({
      timeout: 20_000,
    });
    await header.getByRole('button', { name: /^Live key · / }).click();
    const details = header.getByRole('group', { name: 'Connection details' });
    await expect(
      details.getByText('Live key: changes are real and visible to buyers.'),
    ).toBeVisible();
    await expect(details.getByText('slr_demo', { exact: true })).toBeVisible();
  });
});
