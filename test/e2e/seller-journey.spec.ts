import { expect, test } from '@playwright/test';
import { DEMO_UNLISTED_CERTS } from '../../src/sandbox';
import { checkPage } from './support';

/**
 * A seller's morning, in Chromium against the production build on a fresh demo sandbox. The
 * steps share one sandbox, so they run in order.
 */
test.describe.serial('a seller', () => {
  test.beforeEach(async ({ page }) => {
    page.on('pageerror', (error) => {
      throw error;
    });
  });

  test('opens the overview: live mode, money and work first, the connection as one status', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
    // One status in the frame (the key's mode and the updates, in words) and the API capacity;
    // the seller and the details fold out of the status.
    const frame = page.getByRole('banner');
    const status = frame.getByRole('button', { name: /^Live key · / });
    await expect(status).toHaveCount(1);
    await expect(frame.getByRole('meter', { name: /API capacity/ })).toBeVisible();
    await expect(page.getByRole('meter', { name: /API capacity/ })).toHaveCount(1);
    await status.click();
    const details = page.getByRole('group', { name: 'Connection details' });
    await expect(
      details.getByText('Live key: changes are real and visible to buyers.'),
    ).toBeVisible();
    await expect(details.getByText('slr_demo')).toBeVisible();
    await status.click();
    const work = page.getByRole('region', { name: 'Work' });
    await expect(work.getByText('Live listings', { exact: true })).toBeVisible();
    await expect(work.locator('dd').first()).toHaveText(/^\d+$/);
    await expect(
      page.getByRole('table', { name: 'Ship these to the hub, soonest deadline first' }),
    ).toBeVisible();
    await checkPage(page, 'overview');
  });

  test('finds a listing by player, fixes its price, meets a 422, deactivates and reactivates it', async ({
    page,
  }) => {
    await page.goto('/listings');
    // The whole catalogue (600 demo listings, and any a journey before this one listed).
    await expect(page.getByText(/^(6\d\d) of \1 listings/)).toBeVisible({ timeout: 20_000 });
    await checkPage(page, 'listings');

    await page.getByLabel('Status', { exact: true }).selectOption('active');
    await page.getByRole('searchbox', { name: 'Search' }).fill('Mahomes');
    await expect(page).toHaveURL(/q=Mahomes/);
    const table = page.getByRole('table', { name: 'Listings' });
    const first = table.getByRole('link', { name: /Mahomes/ }).first();
    const title = (await first.textContent())!;
    await first.click();
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await checkPage(page, 'listing-detail');

    await page.getByRole('link', { name: 'Edit listing' }).click();
    const form = page.getByRole('form', { name: 'Edit listing' });
    await expect(form).toBeVisible();
    await checkPage(page, 'listing-edit');
    const last = Number(await form.getByLabel('Price (USD)').inputValue());
    // Client-side bound first: nothing is sent.
    await form.getByLabel('Price (USD)').fill('5');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect(form.getByText('The price must be from $10 to $1,000,000')).toBeVisible();
    // A price the client accepts, sent with a minimum offer above it: the listing rules (the
    // API's own, in its words) land on the price field and on the minimum offer field.
    await form.getByLabel('Price (USD)').fill('150.00');
    await form.getByLabel('Accept offers').check();
    await form.getByLabel('Minimum offer (USD)').fill('175.00');
    await form.getByRole('button', { name: 'Save changes' }).click();
    const priceField = form.getByLabel('Price (USD)');
    await expect(priceField).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByText('must be at least the minimum offer sent with it')).toBeVisible();
    const minimum = form.getByLabel('Minimum offer (USD)');
    await expect(minimum).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByText('must be at most the price')).toBeVisible();
    await checkPage(page, 'listing-edit-422');
    // Fix it and save.
    await form.getByLabel('Minimum offer (USD)').fill('120.00');
    await form.getByRole('button', { name: 'Save changes' }).click();
    // $150 more than 3 times the listing's price or under a third of it asks once first.
    if (150 > last * 3 || 150 * 3 < last) {
      await page
        .getByRole('dialog', { name: 'Save this price?' })
        .getByRole('button', { name: 'Save it' })
        .click();
    }
    await expect(page.getByText('Saved.')).toBeVisible();
    const terms = page.getByRole('region', { name: 'Sale terms' });
    await expect(terms.getByText('$150.00')).toBeVisible();
    // The minimum offer: the current value, or (where the API does not show it) what was set here.
    await expect(terms.getByText(/\$120\.00/)).toBeVisible();

    await page.getByRole('button', { name: 'Deactivate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate this listing?' });
    await expect(dialog).toBeVisible();
    await checkPage(page, 'listing-deactivate-confirm');
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await expect(page.getByText(/Deactivated: the listing is off the marketplace/)).toBeVisible();
    await expect(terms.getByText('(Ended by you)')).toBeVisible();

    await page.getByRole('button', { name: 'Reactivate' }).click();
    await page
      .getByRole('dialog', { name: 'Reactivate this listing?' })
      .getByRole('button', { name: 'Reactivate' })
      .click();
    await expect(page.getByText(/Reactivated: the listing is live/)).toBeVisible();
    await expect(terms.locator('.pill')).toHaveText('Active');
  });

  test('lists a new cert', async ({ page }) => {
    const cert = DEMO_UNLISTED_CERTS[0]!;
    await page.goto('/listings');
    await page.getByRole('link', { name: 'New listing' }).click();
    const form = page.getByRole('form', { name: 'New listing' });
    await checkPage(page, 'listing-new');
    await form.getByLabel('Cert number').fill(cert.cert_number);
    await form.getByLabel('Price (USD)').fill('420.00');
    // On by default; turned off here to list at once (this browser remembers it for the next one).
    await form.getByLabel('Check the card before it goes live').uncheck();
    await form.getByRole('button', { name: 'Create listing' }).click();
    await expect(page.getByRole('heading', { name: 'Listing created' })).toBeVisible();
    await expect(page.getByText(/Live now/)).toBeVisible();
    await checkPage(page, 'listing-created');
    await page.getByRole('link', { name: 'Open the listing' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(cert.player);
  });

  test('opens an order and reads its timeline', async ({ page }) => {
    await page.goto('/orders');
    await expect(page.getByText(/\d+ of \d+ orders/)).toBeVisible();
    await checkPage(page, 'orders');
    await page.getByLabel('Status', { exact: true }).selectOption('closed');
    await expect(page).toHaveURL(/status=closed/);
    const link = page.getByRole('table', { name: 'Orders' }).getByRole('link').first();
    const code = (await link.textContent())!;
    await page
      .getByRole('searchbox', { name: 'Search by player, card, cert or order code' })
      .fill(code);
    await expect(page.getByText(/^1 of \d+ orders/)).toBeVisible();
    await link.click();
    await expect(page.getByRole('heading', { name: `Order ${code}` })).toBeVisible();
    const timeline = page.getByRole('list', { name: 'Order timeline' });
    await expect(timeline.getByRole('listitem')).toHaveCount(7);
    await expect(timeline.getByRole('listitem').first()).toContainText('Sold');
    const money = page.getByRole('region', { name: 'Money' });
    await expect(money.getByText('Platform fee')).toBeVisible();
    // Each stage reads as done or not yet on either server: the documented one leaves the
    // timestamps of what has not happened out instead of sending null.
    await expect(timeline.getByText(/Not shown by the API|Could not be read/)).toHaveCount(0);
    // The single view may leave total_tax out (the documented server does): said, never $0.00.
    const tax = money.getByText('Tax', { exact: true }).locator('xpath=following-sibling::dd[1]');
    if (test.info().project.name === 'documented') {
      await expect(tax).toHaveText('Not shown by the API');
    } else {
      await expect(tax).toHaveText(/^\$\d/);
    }
    await checkPage(page, 'order-detail');
  });

  test('finds an unlisted card in inventory and lists it', async ({ page }) => {
    await page.goto('/inventory');
    await expect(page.getByText(/\d+ of \d+ cards/)).toBeVisible();
    await checkPage(page, 'inventory');
    await page.getByLabel('Only cards never listed').check();
    await expect(page).toHaveURL(/unlisted=yes/);
    const listIt = page
      .getByRole('table', { name: 'Inventory' })
      .getByRole('link', { name: /^List / })
      .first();
    await listIt.click();
    await expect(page.getByText(/Listing the card .* from your inventory/)).toBeVisible();
    await page.getByLabel('Price (USD)').fill('65.00');
    // On by default (each test is a fresh browser): turned off here to list at once.
    await page.getByLabel('Check the card before it goes live').uncheck();
    await page.getByRole('button', { name: 'Create listing' }).click();
    await expect(page.getByText(/Live now/)).toBeVisible();
  });

  test('reads the two locations', async ({ page }) => {
    await page.goto('/locations');
    await expect(page.getByRole('heading', { level: 2 })).toHaveCount(2);
    await checkPage(page, 'locations');
  });
});
