import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { ourWords, scanFigures, sidewaysScroll } from './figure-scan';
import { findDemoRecords, type DemoRecords } from './demo-records';

/**
 * Every figure whole, everywhere: on every page at a phone's 390×844 and a desk's 1280×800, each
 * money figure, order code, cert number and date (marked `data-figure`, or found by its pattern
 * in the text) sits on one line, inside the window and uncut by its box; the page never scrolls
 * sideways. Each page's screenshots (full length, and its first screen) are kept under
 * test-results/pages/, and each page's findings beside them as JSON.
 */

const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

interface PageCase {
  name: string;
  path: (found: DemoRecords) => string;
  heading: RegExp;
  /** Its tables mark their figures (`data-figure`). */
  marks?: boolean;
}

const PAGES: PageCase[] = [
  { name: 'overview', path: () => '/', heading: /^Overview$/, marks: true },
  { name: 'insights', path: () => '/insights', heading: /^Insights$/, marks: true },
  { name: 'listings', path: () => '/listings', heading: /^Listings$/, marks: true },
  { name: 'listing', path: (f) => `/listings/${f.listing}`, heading: /./ },
  { name: 'orders', path: () => '/orders', heading: /^Orders$/, marks: true },
  { name: 'order', path: (f) => `/orders/${f.order}`, heading: /^Order SL-/ },
  { name: 'payouts', path: () => '/payouts', heading: /^Payouts$/, marks: true },
  { name: 'inventory', path: () => '/inventory', heading: /^Inventory$/, marks: true },
  { name: 'locations', path: () => '/locations', heading: /^Locations$/ },
  { name: 'events', path: () => '/events', heading: /^Events$/ },
  { name: 'activity', path: () => '/activity', heading: /^Activity$/ },
  { name: 'ship-queue', path: () => '/ship-queue', heading: /^Ship to the hub$/, marks: true },
  {
    name: 'bulk-edit',
    path: (f) => `/listings/bulk-edit?ids=${f.listings.join(',')}`,
    heading: /^Bulk edit$/,
  },
  { name: 'new-listing', path: () => '/listings/new', heading: /^New listing$/ },
];

/** The page drawn with its data: its heading, the network quiet, nothing busy or loading. */
async function settled(page: Page, heading: RegExp): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible({
    timeout: 20_000,
  });
  await page.waitForLoadState('networkidle');
  const main = page.locator('main');
  await expect(main).toHaveAttribute('aria-busy', 'false');
  await expect(main.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 });
  await expect(main.getByText(/^Loading\b/)).toHaveCount(0, { timeout: 30_000 });
  // Fonts and the last layout in: figures are measured as the seller sees them.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

test.describe('every figure whole, on every page', () => {
  test.beforeEach(({ page }) => {
    page.on('pageerror', (error) => {
      throw error;
    });
  });

  for (const size of SIZES) {
    for (const entry of PAGES) {
      test(`${entry.name} at ${size.width}×${size.height}: no figure broken, cut or past the edge; no sideways scroll`, async ({
        page,
      }) => {
        await page.setViewportSize(size);
        await page.goto(entry.path(await findDemoRecords()));
        await settled(page, entry.heading);
        // A table's rows follow its data in a deferred render: the marked figures are awaited.
        if (entry.marks) {
          await expect.poll(() => page.locator('main [data-figure]').count()).toBeGreaterThan(0);
        }
        const findings = await page.evaluate(scanFigures);
        const sideways = await page.evaluate(sidewaysScroll);
        const words = await page.evaluate(ourWords);
        // The marked figures are found, and the pattern scan reads this page's text.
        const marked = await page.locator('main [data-figure]').count();

        mkdirSync('test-results/pages', { recursive: true });
        const file = `test-results/pages/${entry.name}-${size.width}`;
        await page.screenshot({ path: `${file}.png`, fullPage: true });
        await page.screenshot({ path: `${file}-first-screen.png` });
        writeFileSync(
          `${file}.json`,
          JSON.stringify({ sideways, marked, findings, words }, null, 2),
        );

        expect(sideways, 'the page scrolls sideways by this many px').toBeLessThanOrEqual(0);
        const said = findings.map((f) => `${f.kind} "${f.text}" ${f.problem} (${f.where})`);
        expect(said, said.join('\n')).toEqual([]);
        expect(words, 'words for us, not for sellers').toEqual([]);
        if (entry.marks) expect(marked, 'figures marked in the markup').toBeGreaterThan(0);
      });
    }
  }
});
