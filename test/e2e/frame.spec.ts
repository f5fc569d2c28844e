import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './support';

/**
 * A quiet frame: at a desk's 1280 px the header is one row (no lone "?" on a second), with one
 * status (the key's mode and the updates) and the API capacity shown once, on every page the
 * overview included; the seller is in the status's details.
 */

/** The header's controls, by row: the distinct tops of the top bar's items, rounded. */
const headerRows = (page: Page) =>
  page.locator('.topbar').evaluate((bar) => {
    const items = [...bar.querySelectorAll('a, button, meter')].filter(
      (item) => (item as HTMLElement).offsetParent !== null,
    );
    const middles = items.map((item) => {
      const box = item.getBoundingClientRect();
      return Math.round((box.top + box.bottom) / 2 / 12);
    });
    return new Set(middles).size;
  });

test.describe('the frame at a desk’s 1280×800', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  for (const path of ['/', '/listings', '/orders', '/listings/bulk-edit?status=draft']) {
    test(`${path}: the header is one row`, async ({ page }) => {
      await page.goto(path);
      await expect(
        page.getByRole('banner').getByRole('meter', { name: /API capacity/ }),
      ).toBeVisible();
      await expect(
        page.getByRole('banner').getByRole('button', { name: 'Live key · updates on' }),
      ).toBeVisible();
      await expect(page.locator('main')).toHaveAttribute('aria-busy', 'false');
      expect(await headerRows(page)).toBe(1);
      const shortcuts = page.getByRole('button', { name: 'Keyboard shortcuts' });
      const nav = page.getByRole('navigation', { name: 'Main' });
      const [a, b] = [(await shortcuts.boundingBox())!, (await nav.boundingBox())!];
      expect(Math.abs(a.y + a.height / 2 - (b.y + b.height / 2))).toBeLessThan(12);
    });
  }

  test('the overview shows one status (the key and the updates) and the API capacity once', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
    const banner = page.getByRole('banner');
    await expect(banner.getByRole('button', { name: /^Live key · / })).toHaveCount(1);
    await expect(page.getByText('LIVE', { exact: true })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Live', exact: true })).toHaveCount(0);
    await expect(page.getByRole('meter', { name: /API capacity/ })).toHaveCount(1);
    // The seller, once, in the status's details.
    await banner.getByRole('button', { name: /^Live key · / }).click();
    const shown = (text: string) => page.getByText(text, { exact: true }).filter({ visible: true });
    await expect(shown('slr_demo')).toHaveCount(1);
  });
});

for (const size of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`listings at ${size.width} px: the filter pills and the open Columns menu stay on the screen, axe finds nothing`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await page.goto('/listings?grader=PSA&offers=yes');
    await expect(
      page.getByRole('table', { name: 'Listings' }).getByRole('link').first(),
    ).toBeVisible({ timeout: 20_000 });
    const pills = page.getByRole('list', { name: 'Filters in force' });
    await expect(pills.getByRole('listitem')).toHaveCount(2);
    const columns = page.getByRole('button', { name: 'Columns' });
    await columns.click();
    await expect(columns).toHaveAttribute('aria-expanded', 'true');
    const panel = page.getByRole('group', { name: 'Columns to show' });
    await expect(panel.getByRole('checkbox').first()).toBeFocused();
    const box = (await panel.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(size.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      size.width,
    );
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(columns).toBeFocused();
    await page.getByRole('button', { name: 'Remove the filter Grader: PSA' }).click();
    await expect(pills.getByRole('listitem')).toHaveCount(1);
    await expect(page).not.toHaveURL(/grader=/);
  });
}
