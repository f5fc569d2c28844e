import { expect, test, type Page } from '@playwright/test';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { control, sandboxUrl } from './support';
import { makeShowScene } from './show-scene';

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
  // Issue 53: codes, raw statuses and categories, ISO times, bad plurals, currency codes.
  ['a code', /\b[a-z]+_[a-z_]+\b/],
  ['an ISO time', /\d{4}-\d{2}-\d{2}T\d/],
  ['a plural after one', /\b1 (?:trades|orders|listings|cards|changes|sales|cells|rows|items)\b/],
  ['a "(s)" plural', /\w\(s\)/],
  ['a currency code after an amount', /\d\.\d\d (?:USD|usd)\b/],
  ['a raw category', /\b(?:pokemon|yugioh|non sport)\b|\bmagic\b/],
  ['a field name', /\bFinancial status\b|\bhttps\)/],
  ['a bare meter figure', /(?:^|\s)\d+\/40\b/],
  ['a deadline without its word', /\b(?:tomorrow|today) left\b/],
];

/** Status pills and the choices of every select, which must read as words, not codes. */
async function codeWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const raw =
      /^(?:active|draft|archived|inactive|sold|open|closed|cancelled|paid|pending|refunded|order cancelled|deactivated by seller|pokemon|yugioh|magic|non sport)$/;
    const texts = [
      ...[...document.querySelectorAll('.pill')].map((pill) => pill.textContent ?? ''),
      ...[...document.querySelectorAll('select option')].map((option) => option.textContent ?? ''),
    ];
    return texts.map((text) => text.trim()).filter((text) => raw.test(text) || text.includes('_'));
  });
}

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
  expect(await codeWords(page), `${where} shows codes in its pills or choices`).toEqual([]);
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
    // A sale and a refund.
    const { order } = await control<{ order: { id: string } }>(
      'POST',
      `/listings/${listing.id}/sell`,
      {},
    );
    await control('POST', `/orders/${order.id}/refund`, { amount: '5.00' });

    // A show with two sales at the table (one with a trade): its page, its CSV and a receipt.
    const scene = await makeShowScene(process.env.SLABDESK_E2E_URL!);

    const pages: [string, string, string | RegExp][] = [
      ['Overview', '/', ''],
      ['Listings', '/listings', 'Listings'],
      ['a sold listing', `/listings/${listing.id}`, ''],
      ['New listing', '/listings/new', ''],
      ['Inventory', '/inventory', 'Inventory'],
      ['Insights', '/insights', ''],
      ['its order', `/orders/${order.id}`, /^Order /],
      ['Ship-to-hub queue', '/ship-queue', ''],
      ['Rules', '/rules', 'Pricing rules'],
      ['Shows', '/shows', ''],
      ['a show', `/shows/${scene.showKey}`, ''],
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
      if (where === 'a sold listing') {
        await expect(page.getByText(/This listing sold/)).toBeVisible({ timeout: 15_000 });
      }
      if (where === 'a show') {
        const receipts = page.getByRole('link', { name: /^Receipt: / });
        await expect(receipts.first()).toBeVisible({ timeout: 15_000 });
        await expectSellerWords(page, `${where} at ${viewport.width} px`);
        await receipts.last().click();
        await expect(page.getByRole('region', { name: /^Receipt / })).toBeVisible();
        await expectSellerWords(page, `a receipt at ${viewport.width} px`);
        continue;
      }
      if (where.includes('does not exist') && where !== 'a page that does not exist') {
        await expect(page.getByRole('alert').first()).toBeVisible({ timeout: 15_000 });
      }
      await expect(page.locator('main').getByText(/^Loading\b/)).toHaveCount(0, {
        timeout: 30_000,
      });
      await expectSellerWords(page, `${where} at ${viewport.width} px`);
    }

    // The show's CSV: times as the seller reads them, plurals right (one trade).
    const csv = await (
      await fetch(
        `${process.env.SLABDESK_E2E_URL}/hub/shows/${scene.showKey}/ledger.csv?tz=America/New_York`,
      )
    ).text();
    expect(csv).not.toMatch(/\d{4}-\d{2}-\d{2}T\d/);
    expect(csv).toContain('1 trade');
    expect(csv).not.toMatch(/\b1 trades\b/);
  });
}

test('a search with no match under its filter offers the matches without it, one click away: Orders, Listings', async ({
  page,
}) => {
  // A card sold in an order no longer open, whose title no open order shares.
  const orders = async (status: string) =>
    (
      (await (
        await fetch(`${sandboxUrl()}/2026-07/orders.json?status=${status}&limit=250`, {
          headers: { 'X-Service-Access-Token': DEMO_LIVE_TOKEN },
        })
      ).json()) as { orders: { line_items: { title: string }[] }[] }
    ).orders;
  const open = new Set((await orders('open')).map((o) => o.line_items[0]?.title));
  const closed = (await orders('closed')).map((o) => o.line_items[0]!.title);
  const title = closed.find((one) => !open.has(one))!;
  await page.goto(`/orders?q=${encodeURIComponent(title)}`);
  await expect(page.getByText(/^No open order matches this search$/)).toBeVisible({
    timeout: 30_000,
  });
  const offer = page.getByText(/^\d+ orders? match(?:es)? under any status\./);
  await expect(offer).toBeVisible({ timeout: 30_000 });
  await offer.getByRole('button', { name: /^Show / }).click();
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('any');
  await expect(page.getByRole('table', { name: 'Orders' })).toContainText(title);

  // Listings the same way: a live card's title under the Draft status offers it without the filter.
  const live = await quietListing(5);
  const { listing } = (await (
    await fetch(`${sandboxUrl()}/2026-07/listings/${live.id}.json`, {
      headers: { 'X-Service-Access-Token': DEMO_LIVE_TOKEN },
    })
  ).json()) as { listing: { title: string } };
  await page.goto(`/listings?${new URLSearchParams({ q: listing.title, status: 'draft' })}`);
  const other = page.getByText(
    /^\d+ listings? match(?:es)? the search without the other filters\./,
  );
  await expect(other).toBeVisible({ timeout: 30_000 });
  await other.getByRole('button', { name: /^Show / }).click();
  await expect(page.getByRole('table', { name: 'Listings' })).toContainText(listing.title);
});
