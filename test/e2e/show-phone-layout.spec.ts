import { formatDay } from '../../src/lib/format';
import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { scanFigures, sidewaysScroll } from './figure-scan';
import { makeShowScene, type ShowScene } from './show-scene';
import { expectNoAxeViolations } from './support';
import { deskHints, sidewaysBoxes, smallTargets } from './tap-scan';

/**
 * The card show on a phone at the table (390 × 844, touch): every show page, the counter view
 * and its Sold here form, the bulk editor, the packing sheet and New listing. On each: the page
 * and nothing in it scrolls sideways (tables become stacked rows), every control a finger taps is
 * at least 44 × 44 px (a checkbox by its label), every figure is whole (the figures spec's scan),
 * no desk keyboard hint is shown, and axe finds nothing. Each page's findings and screenshot go to
 * test-results/phone/.
 */

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

interface PageCase {
  name: string;
  path: (scene: ShowScene) => string;
  ready: (page: Page, scene: ShowScene) => Locator;
  /** What the seller does on the page before it is measured. */
  open?: (page: Page, scene: ShowScene) => Promise<void>;
}

const PAGES: PageCase[] = [
  {
    name: 'shows',
    path: () => '/shows',
    ready: (page, scene) => page.getByRole('link', { name: scene.showName }),
  },
  {
    name: 'show-ledger',
    path: (scene) => `/shows/${scene.showKey}`,
    ready: (page) =>
      page
        .getByRole('table', { name: 'Sales at this show' })
        .getByRole('row')
        .filter({ hasText: '$1,180.00' }),
    open: async (page) => {
      // The case's rows are drawn from this device's copy of the catalogue.
      await expect(
        page
          .getByRole('table', { name: 'Listings brought to this show' })
          .getByRole('button', { name: 'Sold here' })
          .first(),
      ).toBeVisible({ timeout: 30_000 });
    },
  },
  {
    // With no network at the table: a sale waits on the phone, in the list of waiting changes.
    name: 'show-ledger-waiting',
    path: (scene) => `/shows/${scene.showKey}`,
    ready: (page) =>
      page
        .getByRole('table', { name: 'Listings brought to this show' })
        .getByRole('button', { name: 'Sold here' })
        .last(),
    open: async (page) => {
      await page.context().setOffline(true);
      await page
        .getByRole('table', { name: 'Listings brought to this show' })
        .getByRole('button', { name: 'Sold here' })
        .last()
        .click();
      const form = page.getByRole('form', { name: /^Sold here/ });
      await form.getByLabel('Sold for ($)').fill('95.50');
      await form.getByRole('button', { name: 'Record the sale' }).click();
      await expect(
        page.getByRole('table', { name: 'Changes made here, oldest first' }).getByRole('row'),
      ).not.toHaveCount(0);
    },
  },
  {
    name: 'show-case',
    path: (scene) => `/shows/case?ids=${scene.caseIds.slice(0, 2).join(',')}`,
    ready: (page) => page.getByRole('button', { name: 'Add to the show’s case' }),
  },
  {
    name: 'counter-sold',
    path: (scene) => `/show/cert/${scene.soldCert}`,
    ready: (page, scene) =>
      page.getByText(new RegExp(`^Sold (here )?at ${scene.showName}`)).first(),
  },
  {
    name: 'counter-sold-here',
    path: (scene) => `/show/cert/${scene.nextCert}`,
    ready: (page) => page.getByRole('button', { name: 'Sold here' }),
    open: async (page, scene) => {
      await page.getByRole('button', { name: 'Sold here' }).click();
      const form = page.getByRole('form', { name: /^Sold here/ });
      await form
        .getByLabel('Show')
        .selectOption({ label: `${scene.showName} (${formatDay('2026-11-28')})` });
      await expect(form.getByRole('button', { name: 'Record the sale' })).toBeVisible();
    },
  },
  {
    // The Scan dialog over the show page: the typed cert's way in (no camera in this browser).
    name: 'scan-dialog',
    path: (scene) => `/shows/${scene.showKey}`,
    ready: (page) => page.getByRole('button', { name: 'Scan', exact: true }),
    open: async (page) => {
      await page.getByRole('button', { name: 'Scan', exact: true }).click();
      await expect(
        page.getByRole('dialog', { name: 'Scan a slab' }).getByLabel('Or type the cert number'),
      ).toBeVisible();
    },
  },
  {
    name: 'bulk-edit',
    path: (scene) => `/listings/bulk-edit?ids=${scene.caseIds.join(',')}`,
    ready: (page) => page.getByRole('table', { name: /^Bulk edit grid, 6 listings$/ }),
  },
  {
    name: 'packing-sheet',
    path: (scene) => `/ship-queue/packing-sheet?orders=${scene.orderIds.join(',')}`,
    ready: (page) => page.getByRole('table', { name: 'Cards in this box' }).getByRole('row').nth(1),
  },
  {
    name: 'listings',
    path: () => '/listings',
    ready: (page) => page.getByRole('table', { name: 'Listings' }).getByRole('link').first(),
  },
  {
    name: 'new-listing',
    path: () => '/listings/new',
    ready: (page) => page.getByRole('heading', { name: 'New listing', level: 1 }),
  },
];

let scene: ShowScene;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  scene = await makeShowScene(process.env.SLABDESK_E2E_URL!);
});

test.describe('at the table, on a phone', () => {
  test.beforeEach(({ page }) => {
    page.on('pageerror', (error) => {
      throw error;
    });
  });

  for (const entry of PAGES) {
    test(`${entry.name} at 390 × 844: no sideways scroll, every control 44 × 44 px, every figure whole, no desk hints`, async ({
      page,
    }) => {
      test.setTimeout(90_000);
      await page.goto(entry.path(scene));
      await expect(entry.ready(page, scene)).toBeVisible({ timeout: 30_000 });
      await entry.open?.(page, scene);
      await page.waitForLoadState('networkidle');
      const main = page.locator('main');
      await expect(main).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
      await expect(main.getByText(/^Loading\b/)).toHaveCount(0, { timeout: 30_000 });
      await page.evaluate(() => document.fonts.ready.then(() => undefined));

      const sideways = await page.evaluate(sidewaysScroll);
      const boxes = await page.evaluate(sidewaysBoxes);
      const small = await page.evaluate(smallTargets);
      const figures = await page.evaluate(scanFigures);
      const hints = await page.evaluate(deskHints);

      mkdirSync('test-results/phone', { recursive: true });
      await page.screenshot({ path: `test-results/phone/${entry.name}.png`, fullPage: true });
      writeFileSync(
        `test-results/phone/${entry.name}.json`,
        JSON.stringify({ sideways, boxes, small, figures, hints }, null, 2),
      );

      expect(sideways, 'the page scrolls sideways by this many px').toBeLessThanOrEqual(0);
      const said = (found: { what: string; problem: string }[]) =>
        found.map((f) => `${f.what}: ${f.problem}`);
      expect(said(boxes), 'boxes that scroll sideways').toEqual([]);
      expect(said(small), 'controls a finger cannot tap surely').toEqual([]);
      expect(
        figures.map((f) => `${f.kind} "${f.text}" ${f.problem} (${f.where})`),
        'figures not whole',
      ).toEqual([]);
      expect(hints, 'desk keyboard hints on a touch screen').toEqual([]);
      await expectNoAxeViolations(page);
    });
  }
});
