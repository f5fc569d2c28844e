import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './support';

/**
 * The bulk editor is a spreadsheet first: at a desk's 1280×800 its grid's first row is on the
 * first screen (the actions sit beside it, not above it); on a phone the grid scrolls in its own
 * box and the page itself never scrolls sideways.
 */

/** Every draft listing (the demo has a few dozen): a grid of many rows, as a seller would open. */
const BULK_PATH = '/listings/bulk-edit?status=draft';

async function openBulk(page: Page) {
  await page.goto(BULK_PATH);
  const grid = page.getByRole('table', { name: /^Bulk edit grid, \d+ listings?$/ });
  await expect(grid).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('main')).toHaveAttribute('aria-busy', 'false');
  return grid;
}

test.describe('the bulk editor at a desk’s 1280×800', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the grid’s first row is within the first screen, the actions beside it', async ({
    page,
  }) => {
    const grid = await openBulk(page);
    const firstRow = grid.getByRole('row').nth(1);
    await expect(firstRow).toBeVisible();
    const box = (await firstRow.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(800);
    // The actions are still there, one tab away, by their names.
    await expect(page.getByRole('button', { name: 'Apply price change' })).toBeAttached();
    await expect(page.getByRole('button', { name: 'Set minimum offers' })).toBeAttached();
    await expectNoAxeViolations(page);
  });
});

test.describe('the bulk editor on a phone’s 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the page never scrolls sideways: the grid scrolls in its own box', async ({ page }) => {
    const grid = await openBulk(page);
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    expect(await width()).toBeLessThanOrEqual(390);
    // An edited cell far to the right (with its hidden "changed from" words) widens nothing either.
    const description = page.getByRole('textbox', { name: 'Description, row 1', exact: true });
    await description.fill('Sharp corners, centred.');
    await description.press('Tab');
    await expect(grid.locator('.is-changed').first()).toBeAttached();
    expect(await width()).toBeLessThanOrEqual(390);
    // The grid is wider than the phone and scrolls inside its box.
    const scroller = grid.locator('xpath=..');
    const inner = await scroller.evaluate((e) => ({
      client: e.clientWidth,
      scroll: e.scrollWidth,
    }));
    expect(inner.client).toBeLessThanOrEqual(390);
    expect(inner.scroll).toBeGreaterThan(inner.client);
    await expectNoAxeViolations(page);
  });
});
