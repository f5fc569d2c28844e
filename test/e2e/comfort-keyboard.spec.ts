import { expect, test, type Page } from '@playwright/test';
import { control, expectNoAxeViolations } from './support';

/**
 * The dashboard without a mouse, in Chromium against the production build: only `page.keyboard`
 * moves anything here, and the key presses are counted.
 */

interface GroundTruth {
  product: { id: string; variants?: { price: string }[] };
}

/** Presses keys one by one (each entry is one press, as Playwright names keys) and counts them. */
function keyboardCounter(page: Page) {
  let count = 0;
  return {
    async press(...keys: string[]) {
      for (const key of keys) {
        await page.keyboard.press(key);
        count += 1;
      }
    },
    get count() {
      return count;
    },
  };
}

/** What has focus: its role-ish tag, accessible text and, for a link, where it goes. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return {
      tag: element?.tagName.toLowerCase() ?? '',
      text: element?.textContent?.trim() ?? '',
      label: element?.getAttribute('aria-label') ?? '',
      id: element?.id ?? '',
      href: element?.getAttribute('href') ?? '',
      inTable: element?.closest('table')?.querySelector('caption')?.textContent ?? '',
      status: element?.closest('tr')?.querySelector('td[data-label="Status"]')?.textContent ?? '',
    };
  });

test.beforeEach(({ page }) => {
  page.on('pageerror', (error) => {
    throw error;
  });
});

test('from the overview to a listing in at most 15 key presses, then its price edited and saved', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  const keys = keyboardCounter(page);

  await keys.press('g', 'l');
  await expect(page).toHaveURL(/\/listings$/);
  const table = page.getByRole('table', { name: 'Listings' });
  await expect(table.getByRole('link').first()).toBeVisible({ timeout: 20_000 });
  // j: into the table, on the first row's link; then down to the first listing that is live.
  await keys.press('j');
  let now = await focused(page);
  expect(now.inTable).toBe('Listings');
  while (now.status !== 'Active') {
    expect(keys.count, 'an active listing within reach').toBeLessThan(14);
    await keys.press('ArrowDown');
    now = await focused(page);
    expect(now.inTable).toBe('Listings');
  }
  expect(now.tag).toBe('a');
  const title = now.text;
  const listingId = decodeURIComponent(now.href.replace('/listings/', ''));
  await keys.press('Enter');
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/listings/${listingId}$`));
  const toListing = keys.count;
  expect(toListing).toBeLessThanOrEqual(15);
  test.info().annotations.push({
    type: 'key presses',
    description: `${toListing} from the overview to the listing`,
  });

  // The listing page: Tab to its Edit link, Enter.
  while ((await focused(page)).text !== 'Edit listing') {
    expect(keys.count - toListing, 'Edit listing within 20 Tabs').toBeLessThan(20);
    await keys.press('Tab');
  }
  await keys.press('Enter');
  const form = page.getByRole('form', { name: 'Edit listing' });
  await expect(form).toBeVisible();
  const price = form.getByLabel('Price (USD)');
  const before = await price.inputValue();
  // A new price within 3 times the last, so the save asks nothing (a larger jump asks once).
  const target = (Math.floor(Number(before) * 1.2) + 0.34).toFixed(2);
  const atForm = keys.count;
  while ((await focused(page)).id !== (await price.getAttribute('id'))) {
    expect(keys.count - atForm, 'the price within 40 Tabs').toBeLessThan(40);
    await keys.press('Tab');
  }
  await keys.press('Control+A');
  await page.keyboard.type(target);
  await keys.press('Enter');
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByText('Saved.')).toBeVisible();
  const truth = await control<GroundTruth>('GET', `/listings/${encodeURIComponent(listingId)}`);
  expect(truth.product.variants?.[0]?.price).toBe(target);
  test.info().annotations.push({
    type: 'key presses',
    description: `${keys.count} in all, with the save (plus ${target.length} typed characters)`,
  });
});

test('the skip link is the first Tab and lands on the main content', async ({ page }) => {
  await page.goto('/listings');
  await expect(page.getByRole('heading', { name: 'Listings', level: 1 })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
  await page.keyboard.press('Tab');
  const next = await page.evaluate(() => Boolean(document.activeElement?.closest('main')));
  expect(next).toBe(true);
});

test('a table is one tab stop, with aria-sort on every sortable header, sortable from the keyboard', async ({
  page,
}) => {
  await page.goto('/listings');
  const table = page.getByRole('table', { name: 'Listings' });
  await expect(table.getByRole('link').first()).toBeVisible({ timeout: 20_000 });
  const sortable = table.locator('th:has(button.sort-button)');
  expect(await sortable.count()).toBeGreaterThanOrEqual(4);
  for (const header of await sortable.all()) {
    await expect(header).toHaveAttribute('aria-sort', 'none');
  }
  // Exactly one element of the table is in the tab order.
  const stops = await table.evaluate(
    (element) =>
      Array.from(element.querySelectorAll<HTMLElement>('a, button, input, [tabindex]')).filter(
        (e) => e.tabIndex >= 0,
      ).length,
  );
  expect(stops).toBe(1);

  await page.getByRole('searchbox', { name: 'Search' }).focus();
  let tabs = 0;
  while (!(await focused(page)).inTable) {
    expect(tabs, 'the table within 25 Tabs of the search').toBeLessThan(25);
    await page.keyboard.press('Tab');
    tabs += 1;
  }
  await page.keyboard.press('Tab');
  expect((await focused(page)).inTable).toBe('');
  await page.keyboard.press('Shift+Tab');
  expect((await focused(page)).inTable).toBe('Listings');

  // Up from the first row is the header row: its first control, then → to the Price sort button.
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowUp');
  await expect(table.getByRole('checkbox', { name: /^Select all/ })).toBeFocused();
  const priceButton = table.getByRole('button', { name: 'Price' });
  for (let i = 0; i < 8 && !(await priceButton.evaluate((b) => b === document.activeElement)); i++)
    await page.keyboard.press('ArrowRight');
  await expect(priceButton).toBeFocused();
  await page.keyboard.press('Enter');
  const priceHeader = table.getByRole('columnheader', { name: 'Price' });
  await expect(priceHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/sort=price/);
  await page.keyboard.press('Enter');
  await expect(priceHeader).toHaveAttribute('aria-sort', 'descending');
  const others = table.locator('th[aria-sort="none"]');
  expect(await others.count()).toBe((await sortable.count()) - 1);

  // Space selects the row in focus; Shift+Space the range to it.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Shift+Space');
  await expect(page.getByText(/· 3 selected/)).toBeVisible();
});

test('shortcuts: / to search, g then a letter to a page, ? for the list; never while typing', async ({
  page,
}) => {
  await page.goto('/listings');
  await expect(page.getByRole('heading', { name: 'Listings', level: 1 })).toBeVisible();
  const search = page.getByRole('searchbox', { name: 'Search' });
  await page.keyboard.press('/');
  await expect(search).toBeFocused();
  // Typing in the search: g, l, o, ?, / and j are letters, not shortcuts.
  await page.keyboard.type('gl go ?/j');
  await expect(search).toHaveValue('gl go ?/j');
  await expect(page).toHaveURL(/\/listings/);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await search.fill('');

  await page.locator('main').focus();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  for (const text of [
    'Search this page',
    'Go to listings',
    'Go to orders',
    'Go to inventory',
    'Go to the overview',
    'Show these shortcuts',
  ]) {
    await expect(help.getByText(text, { exact: false })).toBeVisible();
  }
  await expect(help.getByRole('button', { name: 'Close' })).toBeFocused();
  await expectNoAxeViolations(page);
  // While the help is open, shortcuts do nothing.
  await page.keyboard.press('g');
  await page.keyboard.press('o');
  await expect(page).toHaveURL(/\/listings/);
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  await expect(page.locator('main')).toBeFocused();

  await page.keyboard.press('g');
  await page.keyboard.press('o');
  await expect(page.getByRole('heading', { name: 'Orders', level: 1 })).toBeVisible();
  await page.keyboard.press('g');
  await page.keyboard.press('i');
  await expect(page.getByRole('heading', { name: 'Inventory', level: 1 })).toBeVisible();
  await page.keyboard.press('g');
  await page.keyboard.press('h');
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await page.keyboard.press('g');
  await page.keyboard.press('l');
  await expect(page.getByRole('heading', { name: 'Listings', level: 1 })).toBeVisible();
  // A letter alone is not a jump.
  await page.keyboard.press('o');
  await expect(page).toHaveURL(/\/listings$/);
  // The help opens from its button in the top bar too.
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).focus();
  await page.keyboard.press('Enter');
  await expect(help).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(help.getByRole('button', { name: 'Close' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(help).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Keyboard shortcuts' })).toBeFocused();
});
