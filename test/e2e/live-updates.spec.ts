import { expect, test, type Page } from '@playwright/test';
import { checkPage, control } from './support';

/**
 * Live updates: the server registered its webhook endpoint with the sandbox; a sale made through
 * the control API reaches every open tab through the server's event stream, with no reload and
 * no poll.
 */
async function markNoReload(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { slabdeskNoReload: boolean }).slabdeskNoReload = true;
  });
}
const stillSamePage = (page: Page) =>
  page.evaluate(() => (window as unknown as { slabdeskNoReload?: boolean }).slabdeskNoReload);

test('a sale made through the control API shows in an open listings tab and in the order list without a reload', async ({
  context,
}) => {
  const { products } = await control<{ products: { id: string; title: string; status: string }[] }>(
    'GET',
    '/listings?seller_id=slr_demo',
  );
  const listing = products.filter((p) => p.status === 'active').at(-1)!;

  const listingsTab = await context.newPage();
  await listingsTab.goto(`/listings?q=${listing.id}`);
  const table = listingsTab.getByRole('table', { name: 'Listings' });
  const row = table.getByRole('row').filter({ hasText: listing.title });
  await expect(row).toContainText('Active');
  await expect(listingsTab.getByRole('button', { name: 'Live key · updates on' })).toBeVisible();

  const ordersTab = await context.newPage();
  await ordersTab.goto('/orders');
  const orders = ordersTab.getByRole('table', { name: 'Orders' });
  await expect(orders).toBeVisible();
  await expect(ordersTab.getByRole('button', { name: 'Live key · updates on' })).toBeVisible();
  await markNoReload(listingsTab);
  await markNoReload(ordersTab);

  // Both pages settled (their own first reads done, the orders tab's card names among them):
  // what follows is what the sale costs.
  for (const page of [listingsTab, ordersTab]) await page.waitForLoadState('networkidle');
  // Every API call either tab makes from here on (there should be none: the stream carries it).
  const apiCalls: string[] = [];
  for (const page of [listingsTab, ordersTab]) {
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) apiCalls.push(request.url());
    });
  }

  const { order } = await control<{ order: { id: string; name: string } }>(
    'POST',
    `/listings/${listing.id}/sell`,
    {},
  );
  await expect(row).toContainText('Sold');
  // The list is long and windowed: find the new order by its code (a filter, not a reload).
  await ordersTab
    .getByRole('searchbox', { name: 'Search by player, card, cert or order code' })
    .fill(order.name);
  await expect(orders.getByRole('row').filter({ hasText: order.name })).toBeVisible();
  expect(await stillSamePage(listingsTab)).toBe(true);
  expect(await stillSamePage(ordersTab)).toBe(true);
  // The sale is whole in the payload (status and reason): no read was needed for it.
  expect(apiCalls.filter((url) => url.includes('/listings'))).toEqual([]);

  await ordersTab.goto('/events');
  await expect(ordersTab.getByRole('heading', { name: 'Events', level: 1 })).toBeVisible();
  await expect(
    ordersTab
      .getByRole('row')
      .filter({ hasText: `Sold: ` })
      .filter({ hasText: order.name })
      .first(),
  ).toContainText('Shown on every page');
  await checkPage(ordersTab, 'events');
});

test('with no event stream, Refresh after a sale shows the listing sold, as a reload does', async ({
  page,
}) => {
  // The tab hears of no webhook: it reads only when asked (or on its minute's poll).
  await page.route('**/hub/events**', (route) => route.abort());
  const { products } = await control<{ products: { id: string; title: string; status: string }[] }>(
    'GET',
    '/listings?seller_id=slr_demo',
  );
  const listing = products.filter((p) => p.status === 'active').at(-2)!;
  await page.goto(`/listings?q=${listing.id}`);
  const row = page
    .getByRole('table', { name: 'Listings' })
    .getByRole('row')
    .filter({ hasText: listing.title });
  await expect(row).toContainText('Active');
  await markNoReload(page);

  await control('POST', `/listings/${listing.id}/sell`, {});
  // The sale reaches the hub by its webhook, sent after the control call answers, and Refresh
  // reads what the hub holds (as a reload would): pressed again, as a seller would, until it has.
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(row).toContainText('Sold', { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(row).not.toContainText(/archived|Ended/);
  expect(await stillSamePage(page)).toBe(true);
});
