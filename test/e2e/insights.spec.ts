import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './support';

/** Saves the page at a laptop's 1280×800 and a phone's 390×844, axe-clean at both. */
async function bothSizes(page: Page, name: string) {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expectNoAxeViolations(page);
    // Nothing wider than the phone: the page scrolls down, never sideways.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `${name} at ${width}px is wider than the screen`).toBeLessThanOrEqual(0);
    await page.screenshot({
      path: `test/e2e/screenshots/${name}-${width}x${height}.png`,
      fullPage: true,
    });
  }
}

test.describe('money and work at a glance', () => {
  test.beforeEach(async ({ page }) => {
    page.on('pageerror', (error) => {
      throw error;
    });
  });

  test('the overview shows money and the ship-to-hub work', async ({ page }) => {
    await page.goto('/');
    const money = page.getByRole('region', { name: 'Money' });
    await expect(money.getByText('Last 30 days', { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(money.locator('dd').first()).toHaveText(/^\$[\d,]+\.\d{2}$/);
    await expect(
      page.getByRole('region', { name: 'Work' }).locator('dt', { hasText: /^Open orders$/ }),
    ).toBeVisible();
    await bothSizes(page, 'overview-glance');
  });

  test("the insights page: a chart's bar shows the figure its table gives", async ({ page }) => {
    await page.goto('/insights?by=month&metric=net');
    const table = page.getByRole('table', { name: 'Sales by month' });
    await expect(table).toBeVisible({ timeout: 20_000 });
    const lastRow = table.locator('tbody tr').last();
    const month = (await lastRow.locator('th').textContent())!;
    const net = (await lastRow.locator('td').nth(3).textContent())!;
    expect(net).toMatch(/^\$[\d,]+\.\d{2}$/);
    const bar = page.getByRole('img', { name: `${month}: ${net}` });
    await bar.focus();
    await expect(page.getByText(`${month}: Net payouts ${net}`)).toBeVisible();
    // Age buckets lead to the listings filtered that way.
    const ages = page.getByRole('table', { name: 'Live listings by age' });
    const count = (await ages
      .getByRole('row', { name: /^8–30 days/ })
      .locator('td')
      .first()
      .textContent())!;
    await bothSizes(page, 'insights');
    await page.setViewportSize({ width: 1280, height: 800 });
    await ages.getByRole('link', { name: `See ${count} listed 8–30 days` }).click();
    await expect(page).toHaveURL(/\/listings\?status=active&age=8-30$/);
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: /listings/ })
        .first(),
    ).toContainText(`${count} of`, { timeout: 20_000 });
  });

  test('the payouts view and the ship-to-hub queue are axe-clean', async ({ page }) => {
    await page.goto('/payouts');
    await expect(page.getByRole('table', { name: 'Payouts paid, by month' })).toBeVisible({
      timeout: 20_000,
    });
    await bothSizes(page, 'payouts');
    await page.goto('/ship-queue');
    await expect(
      page.getByRole('table', { name: 'Orders awaiting shipment to the hub' }),
    ).toBeVisible({
      timeout: 20_000,
    });
    await page.getByRole('checkbox').nth(1).check();
    await page.getByRole('link', { name: 'Packing sheet for 1 selected' }).click();
    await expect(page.getByRole('img', { name: /^Barcode of / })).toBeVisible({ timeout: 20_000 });
    await bothSizes(page, 'packing-sheet');
  });
});
