import { expect, test, type Page } from '@playwright/test';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { control, sandboxUrl } from './support';

/**
 * Issue 42: what a seller sees without opening "Details" is in their words. On Activity, Events,
 * Locations, Orders, Payouts and the not-found pages, at a phone's and a desk's width, no visible
 * text outside a closed <details> carries an API id, an HTTP status or verb, a webhook topic or a
 * JSON brace.
 */
const API_VOCABULARY: [string, RegExp][] = [
  ['an API id', /\b(?:lst|evt|req|loc)_[a-z0-9]/i],
  ['an HTTP status', /\bHTTP\b|\bstatus(?: code)?\s*[1-5]\d\d\b|\(\s*[45]\d\d\b/i],
  ['an HTTP verb', /\b(?:GET|POST|PUT|PATCH|DELETE)\b/],
  ['a topic name', /\b(?:orders|products)\/(?:create|updated?|delete|cancelled)\b/],
  ['a JSON brace', /[{}]/],
];

/** The text a seller sees: visible text nodes, leaving out what a closed <details> hides. */
async function sellerText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName)) continue;
      const inDetails = parent.closest('details');
      if (inDetails && !parent.closest('summary')) continue;
      if (!parent.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      parts.push(node.textContent ?? '');
    }
    return parts.join(' ');
  });
}

async function expectSellerWords(page: Page, where: string): Promise<void> {
  const text = await sellerText(page);
  for (const [what, pattern] of API_VOCABULARY) {
    const found = pattern.exec(text);
    expect(
      found,
      `${where} shows ${what}: “…${found ? text.slice(Math.max(0, found.index - 60), found.index + 60) : ''}…”`,
    ).toBeNull();
  }
}

/** A live, unsold listing from the end of the catalogue (other specs take the first ones). */
async function quietListing(offset: number): Promise<{ id: string; price: string }> {
  const response = await fetch(`${sandboxUrl()}/2026-07/listings.json?status=active&limit=250`, {
    headers: { 'X-Service-Access-Token': DEMO_LIVE_TOKEN },
  });
  const { listings } = (await response.json()) as {
    listings: { id: string; price: string; unavailable_reason: string | null }[];
  };
  return listings.filter((one) => one.unavailable_reason === null).at(-10 - offset)!;
}

for (const [index, viewport] of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
].entries()) {
  test(`pages read in the seller's words, at ${viewport.width} px`, async ({ page }) => {
    page.on('pageerror', (error) => {
      throw error;
    });
    await page.setViewportSize(viewport);
    // A price edit through the dashboard (Activity), then a sale and a refund (Events, Payouts).
    const listing = await quietListing(index);
    await page.goto(`/listings/${listing.id}/edit`);
    const form = page.getByRole('form', { name: 'Edit listing' });
    await form.getByLabel('Price (USD)').fill((Number(listing.price) - 1).toFixed(2));
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('region', { name: 'History' })).toContainText('Edited');
    // A refused write: a price below the marketplace's floor, sent through the dashboard's server.
    const { order } = await control<{ order: { id: string } }>(
      'POST',
      `/listings/${listing.id}/sell`,
      {},
    );
    await control('POST', `/orders/${order.id}/refund`, { amount: '5.00' });

    const pages: [string, string, string][] = [
      ['Activity', '/activity', 'Activity'],
      ['Events', '/events', 'Events'],
      ['Locations', '/locations', 'Locations'],
      ['Orders', '/orders?status=any', 'Orders'],
      ['Payouts', '/payouts', 'Payouts'],
      ['a page that does not exist', '/no-such-page', 'Page not found'],
      ['an order that does not exist', '/orders/ord_nothing_here', 'Order'],
      ['a listing that does not exist', '/listings/lst_nothing_here', ''],
    ];
    for (const [where, path, heading] of pages) {
      await page.goto(path);
      if (heading)
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await page.waitForLoadState('networkidle');
      if (where === 'Events') {
        await expect(page.getByRole('table')).toContainText('Sold');
      }
      if (where === 'Activity') {
        await expect(page.getByRole('table')).toContainText('Edited');
      }
      if (where.includes('does not exist') && where !== 'a page that does not exist') {
        await expect(page.getByRole('alert').first()).toBeVisible({ timeout: 15_000 });
      }
      await expectSellerWords(page, `${where} at ${viewport.width} px`);
    }
  });
}
