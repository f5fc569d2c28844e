import { expect, test } from '@playwright/test';

/**
 * The listings table renders only the rows in view (and a margin) and follows its box: scrolled
 * to the bottom it shows the last listing, and End and Home move the keyboard to the last and
 * first rows, scrolling each into view.
 */
test('the listings table shows the rows in view wherever it is scrolled or moved to', async ({
  page,
}) => {
  await page.goto('/listings');
  const table = page.getByRole('table', { name: /Listings/ });
  // The whole catalogue: the summary counts every listing and nothing is loading any more.
  await expect(page.locator('.table-summary')).toHaveText(/^(\d+) of \1 listings/);
  await expect(page.locator('.load-progress')).toHaveCount(0, { timeout: 30_000 });
  const summary = (await page.locator('.table-summary').textContent()) ?? '';
  const total = Number(/^(\d+) of \1 listings/.exec(summary)?.[1]);
  expect(total).toBeGreaterThan(100);

  const rendered = () => table.locator('tbody tr[aria-rowindex]').count();
  expect(await rendered()).toBeLessThan(60);
  const row = (n: number) => table.locator(`tr[aria-rowindex="${n + 1}"]`);
  const box = page.getByRole('region', { name: /scrollable table/ });
  /** Row `n` is drawn within the scroll box's visible part. */
  const inView = async (n: number) => {
    const [outer, inner] = await Promise.all([box.boundingBox(), row(n).boundingBox()]);
    return (
      !!outer &&
      !!inner &&
      inner.height > 0 &&
      inner.y >= outer.y - 1 &&
      inner.y + inner.height <= outer.y + outer.height + 1
    );
  };

  // Scrolled to the bottom: the last listing is drawn, and still only a window of rows. Rows
  // measured taller than their estimate lengthen the table as they draw: the seller scrolls on.
  await expect
    .poll(async () => {
      await box.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
      return inView(total);
    })
    .toBe(true);
  await expect(row(1)).toHaveCount(0);
  expect(await rendered()).toBeLessThan(60);

  // By keyboard: Home goes back to the first row, End to the last one.
  await row(total).getByRole('link').first().focus();
  await page.keyboard.press('Home');
  await expect.poll(() => inView(1)).toBe(true);
  await expect(
    row(1)
      .locator(':focus')
      .or(row(1).and(page.locator(':focus'))),
  ).toHaveCount(1);
  await page.keyboard.press('End');
  await expect.poll(() => inView(total)).toBe(true);
  await expect(
    row(total)
      .locator(':focus')
      .or(row(total).and(page.locator(':focus'))),
  ).toHaveCount(1);
});
