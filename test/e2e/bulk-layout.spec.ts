import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './support';

/**
 * The bulk editor is a spreadsheet first: at a desk's 1280×800 its grid's first row is on the
 * first screen (the actions sit beside it, not above it); on a phone each row is a card of its
 * fields, each under its name, and neither the page nor the grid's box scrolls sideways.
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
    // At a desk, the grid's keys are told.
    await expect(page.getByText(/Ctrl\+D fills down/)).toBeVisible();
    await expectNoAxeViolations(page);
  });
});

test.describe('the bulk editor on a phone’s 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('each row is a card of named fields: nothing scrolls sideways, the price is whole', async ({
    page,
  }) => {
    const grid = await openBulk(page);
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    expect(await width()).toBeLessThanOrEqual(390);
    // An edited description (with its hidden "changed from" words) widens nothing either.
    const description = page.getByRole('textbox', { name: 'Description, row 1', exact: true });
    await description.fill('Sharp corners, centred.');
    await description.press('Tab');
    await expect(grid.locator('.is-changed').first()).toBeAttached();
    expect(await width()).toBeLessThanOrEqual(390);
    // The grid's own box does not scroll sideways either: the row is a card as wide as the box.
    const scroller = grid.locator('xpath=..');
    const inner = await scroller.evaluate((e) => ({
      client: e.clientWidth,
      scroll: e.scrollWidth,
    }));
    expect(inner.client).toBeLessThanOrEqual(390);
    expect(inner.scroll).toBeLessThanOrEqual(inner.client);
    // Every field of the first row is on the screen's width, under its name, a finger's size.
    const row = grid.getByRole('row').filter({ has: description });
    for (const name of ['Title', 'Price', 'Minimum offer', 'Status', 'Duration', 'Description']) {
      const field = row.getByRole(
        name === 'Status' || name === 'Duration' ? 'combobox' : 'textbox',
        {
          name: `${name}, row 1`,
          exact: true,
        },
      );
      const box = (await field.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, name).toBeLessThanOrEqual(390);
      expect(box.height, name).toBeGreaterThanOrEqual(44);
      const label = await row
        .locator(`td:has(#${await field.getAttribute('id')})`)
        .evaluate((cell) => getComputedStyle(cell, '::before').content);
      expect(label).toBe(`"${name}"`);
    }
    // The price is whole in its box: all of "1234.56" shows, none scrolled out of the field.
    const price = row.getByRole('textbox', { name: 'Price, row 1', exact: true });
    await price.fill('123456.78');
    const whole = await price.evaluate((input) => input.scrollWidth <= input.clientWidth);
    expect(whole).toBe(true);
    // The checkboxes take their tap area from the label around them.
    const offers = row.getByRole('checkbox', { name: 'Offers, row 1', exact: true });
    const area = (await offers.locator('xpath=..').boundingBox())!;
    expect(Math.min(area.width, area.height)).toBeGreaterThanOrEqual(44);
    // No desk keyboard hints on a touch screen.
    await expect(page.getByText(/Ctrl\+D fills down/)).toBeHidden();
    await expectNoAxeViolations(page);
  });
});
