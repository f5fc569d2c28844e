import { expect, test } from '@playwright/test';
import { axeResults } from './support';

/**
 * The suite's axe run catches what Lighthouse's accessibility audit catches: a control smaller
 * than 24 px beside another (target-size, off in axe's defaults) and faint text (color-contrast)
 * put on a real page are both reported.
 */
test('the axe run reports a too-small target and faint text, as Lighthouse would', async ({
  page,
}) => {
  await page.goto('/locations');
  await expect(page.getByRole('heading', { name: 'Locations', level: 1 })).toBeVisible();
  const clean = await axeResults(page);
  expect(clean.violations.map((v) => v.id)).toEqual([]);

  await page.evaluate(() => {
    const main = document.querySelector('main')!;
    const box = document.createElement('div');
    for (const label of ['A', 'B']) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = label;
      button.style.cssText = 'width:12px;height:12px;padding:0;margin:0;font-size:8px;';
      box.append(button);
    }
    const faint = document.createElement('p');
    faint.textContent = 'Faint words on white';
    faint.style.cssText = 'color:#d8d8d8;background:#ffffff;';
    main.append(box, faint);
  });
  const ids = (await axeResults(page)).violations.map((v) => v.id);
  expect(ids).toContain('target-size');
  expect(ids).toContain('color-contrast');
});
