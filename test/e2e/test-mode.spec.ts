import { expect, test } from '@playwright/test';
import { checkPage } from './support';

test('test mode is visibly distinct on every page', async ({ page }) => {
  const base = process.env.SLABDESK_E2E_TEST_MODE_URL!;
  for (const path of ['/', '/listings', '/orders', '/inventory']) {
    await page.goto(`${base}${path}`);
    await expect(
      page.getByRole('note').filter({ hasText: 'Test mode: you are looking at test records' }),
    ).toBeVisible();
    await expect(page.getByText('TEST MODE').first()).toBeVisible();
    await expect(page.getByText('LIVE', { exact: true })).toHaveCount(0);
  }
  await page.goto(`${base}/`);
  const connection = page.getByRole('region', { name: 'Connection' });
  await connection.getByText('Connection details').click();
  await expect(connection.getByText(/test records only/)).toBeVisible();
  await checkPage(page, 'overview-test-mode');
});
