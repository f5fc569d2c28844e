import { expect, test, type Page } from '@playwright/test';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { expectNoAxeViolations, sandboxUrl, screenshot } from './support';

/**
 * Who changed what: an edit made in the browser is on the Activity page (with its person, what
 * it changed and its outcome) and in the listing's own history, on a phone and on a desk. The
 * servers of the browser suite are local, with sign-in off: the person is "This computer".
 */

/** A live, unsold demo listing from the end of the catalogue (the other journeys take the first). */
async function quietListing(
  offset: number,
): Promise<{ id: string; title: string; card: { cert_number: string } }> {
  const response = await fetch(`${sandboxUrl()}/2026-07/listings.json?status=active&limit=250`, {
    headers: { 'X-Service-Access-Token': DEMO_LIVE_TOKEN },
  });
  const { listings } = (await response.json()) as {
    listings: {
      id: string;
      title: string;
      unavailable_reason: string | null;
      card: { cert_number: string };
    }[];
  };
  const free = listings.filter((listing) => listing.unavailable_reason === null);
  return free[free.length - 1 - offset]!;
}

/** Nothing of the page is wider than the window: wide content scrolls in its own region. */
async function expectNoPageScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    window: window.innerWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.window);
}

for (const [index, viewport] of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
].entries()) {
  test(`the Activity page lists an edit made in this run, at ${viewport.width} px`, async ({
    page,
  }) => {
    page.on('pageerror', (error) => {
      throw error;
    });
    await page.setViewportSize(viewport);
    const listing = await quietListing(index);
    const newTitle = `Activity check ${viewport.width}`;

    await page.goto(`/listings/${listing.id}/edit`);
    const form = page.getByRole('form', { name: 'Edit listing' });
    await form.getByLabel('Title').fill(newTitle);
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('heading', { name: newTitle, level: 1 })).toBeVisible();

    // The listing's own history shows the change it just had.
    const history = page.getByRole('region', { name: 'History' });
    await expect(history).toContainText(`This computer · Edited: title`);
    await expect(history).toContainText(`→ ${newTitle}`);

    // To the Activity page through the navigation (behind Menu on a phone).
    if (viewport.width < 720) await page.getByRole('button', { name: 'Menu' }).click();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Activity' })
      .click();
    await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
    const table = page.getByRole('table', { name: 'Changes, newest first' });
    // The card is named by its title; the listing id is only under the row's "Details".
    const row = table.getByRole('row').filter({ hasText: listing.id });
    await expect(row.first()).toContainText(`→ ${newTitle}`);
    await expect(row.first()).toContainText('This computer');
    await expect(row.first()).toContainText('Done');
    await expectNoPageScroll(page);

    // The filters by keyboard alone: the card's cert number, as on its label, then Enter.
    await page.getByLabel('Card').fill(listing.card.cert_number);
    await page.getByLabel('Card').press('Enter');
    await expect(page).toHaveURL(new RegExp(`[?&]listing=${listing.id}`));
    // One entry left (counted in the body: on a phone the header row is hidden, each row a card).
    await expect(table.locator('tbody').getByRole('row')).toHaveCount(1);
    await expect(page.getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
      'href',
      // The browser's zone rides along, so the file's times are the seller's.
      new RegExp(`/hub/activity\\.csv\\?listing=${listing.id}&tz=[\\w%/+-]+$`),
    );
    await expectNoPageScroll(page);
    await expectNoAxeViolations(page);
    await screenshot(page, `activity-${viewport.width}`);
  });
}
