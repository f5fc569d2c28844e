import { formatDay } from '../../src/lib/format';
import { startDemoApp } from './show-scene';
import { randomUUID } from 'node:crypto';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { DEMO_LIVE_TOKEN, type RunningSandbox } from '../../src/sandbox';
import type { RunningAppServer } from '../../src/server/app-server';
import { expectNoAxeViolations, untilKeptOffline } from './support';

/**
 * Tender as dealers take it, on a phone at the table (390 × 844, touch), on the production build
 * and a sandbox of its own: a slab sold with a split tender, its receipt shown to the buyer, the
 * show's totals by tender, the sale undone, and the slab sold again.
 */

// The offline receipt needs the service worker (the receipt page's code kept with the app).
test.use({ serviceWorkers: 'allow' });

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true };

let sandbox: RunningSandbox;
let app: RunningAppServer;
let context: BrowserContext | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  ({ sandbox, app } = await startDemoApp());
});

test.afterEach(async () => {
  await context?.close();
  context = undefined;
});

test.afterAll(async () => {
  await app?.close();
  await sandbox?.close();
});

const at = (path: string) => `${app.url}${path}`;

/** An active single slab whose cert is its own, as the sandbox holds it. */
async function aSlab(): Promise<{ id: string; cert: string; title: string }> {
  const answer = await fetch(`${sandbox.url}/2026-07/listings.json?status=active&limit=100`, {
    headers: { 'X-Service-Access-Token': DEMO_LIVE_TOKEN },
  });
  const { listings } = (await answer.json()) as {
    listings: {
      id: string;
      title: string;
      is_lot: boolean;
      unavailable_reason?: string | null;
      card: { cert_number: string };
    }[];
  };
  const certs = new Map<string, number>();
  for (const row of listings) {
    certs.set(row.card.cert_number, (certs.get(row.card.cert_number) ?? 0) + 1);
  }
  const slab = listings.find(
    (row) => !row.is_lot && !row.unavailable_reason && certs.get(row.card.cert_number) === 1,
  )!;
  return { id: slab.id, cert: slab.card.cert_number, title: slab.title };
}

async function ledger(showKey: string) {
  const answer = await fetch(at(`/hub/shows/${showKey}`));
  return (await answer.json()) as {
    entries: { listingId: string; priceCents: number; voided: unknown; tenders: unknown[] }[];
    totals: Record<string, number>;
  };
}

/** A new show, made through the server's routes; answers its key and name. */
async function newShow(): Promise<{ key: string; name: string }> {
  const key = randomUUID();
  const name = `Philly Card Show ${key.slice(0, 4)}`;
  const made = await fetch(at('/hub/shows'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key, name, date: '2026-11-28' }),
  });
  expect(made.status).toBe(201);
  return { key, name };
}

/** The counter view of a cert, opened by its address (as a scan opens it). */
async function counterView(page: Page, cert: string) {
  await page.goto(at(`/show/cert/${cert}`));
  const view = page.getByRole('region', { name: new RegExp(`cert ${cert}`) });
  await expect(view.getByText('Asking', { exact: true })).toBeVisible({ timeout: 30_000 });
  return view;
}

test('a split tender, its receipt, the totals by tender; the sale undone and the slab sold again', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const slab = await aSlab();
  const { key: showKey, name: hall } = await newShow();
  context = await browser.newContext(PHONE);
  const page = await context.newPage();

  // $250: $100 cash and $150 on the dealer's card reader.
  let view = await counterView(page, slab.cert);
  await view.getByRole('button', { name: 'Sold here' }).click();
  let form = view.getByRole('form', { name: /^Sold here/ });
  await form.getByLabel('Show').selectOption({ label: `${hall} (${formatDay('2026-11-28')})` });
  await form.getByLabel('Sold for ($)').fill('250');
  const paid = form.getByRole('group', { name: /Paid with/ });
  await paid.getByRole('checkbox', { name: 'Card, on my reader' }).check();
  await form.getByRole('textbox', { name: 'Cash ($)' }).fill('100');
  await expect(form.getByText('$150.00 left to take')).toBeVisible();
  await form.getByRole('textbox', { name: 'Card ($)' }).fill('150');
  await expect(form.getByText('All $250.00 taken')).toBeVisible();
  await expectNoAxeViolations(page);
  await form.getByRole('button', { name: 'Record the sale' }).click();
  await expect(view.getByText('Taken off the marketplace and recorded in the ledger.')).toBeVisible(
    { timeout: 30_000 },
  );
  await expect(view.getByText(new RegExp(`^Sold at ${hall} on`))).toContainText(
    'for $250.00 ($100.00 cash + $150.00 by card).',
    { timeout: 30_000 },
  );
  expect((await ledger(showKey)).entries).toEqual([
    expect.objectContaining({
      listingId: slab.id,
      priceCents: 25_000,
      voided: null,
      tenders: [
        expect.objectContaining({ kind: 'cash', amountCents: 10_000 }),
        expect.objectContaining({ kind: 'card', amountCents: 15_000 }),
      ],
    }),
  ]);

  // The receipt the buyer is shown: the card, the total, each tender, a code to scan.
  await view.getByRole('link', { name: 'Show receipt' }).click();
  const receipt = page.getByRole('region', { name: /^Receipt R-[0-9A-F]{8}$/ });
  await expect(receipt).toBeVisible({ timeout: 30_000 });
  await expect(receipt.getByText(slab.title)).toBeVisible();
  await expect(receipt.getByText(hall)).toBeVisible();
  await expect(receipt.getByRole('listitem')).toHaveText(['$100.00 cash', '$150.00 by card']);
  await expect(receipt.getByRole('img', { name: /^Code to scan: receipt R-/ })).toBeVisible();
  await expect(receipt.getByText('Waiting to be sent')).toHaveCount(0);
  await expectNoAxeViolations(page);

  // The show's totals, by tender.
  await page.goto(at(`/shows/${showKey}`));
  const figure = (term: string) =>
    page
      .getByLabel('Totals')
      .locator('div')
      .filter({ has: page.getByText(term, { exact: true }) });
  await expect(figure('Cash taken')).toContainText('$100.00', { timeout: 30_000 });
  await expect(figure('Card payments')).toContainText('$150.00');
  await expect(figure('Cards sold')).toContainText('1');

  // Undone from the counter view: named, confirmed, kept in the ledger as undone.
  view = await counterView(page, slab.cert);
  await expect(view.getByRole('button', { name: 'Sold here' })).toHaveCount(0);
  await view.getByRole('button', { name: /^Undo this sale/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Undo this sale?' });
  await expect(dialog).toContainText(
    `Undo the $250.00 ($100.00 cash + $150.00 by card) sale of ${slab.title}? The ledger keeps it as undone; the listing stays off the marketplace until you reactivate it.`,
  );
  await dialog.getByLabel('Why (optional)').fill('Buyer changed his mind');
  await dialog.getByRole('button', { name: 'Undo the sale' }).click();
  // Free to sell again: Sold here, a price cut and Reactivate are offered again.
  await expect(view.getByRole('button', { name: 'Sold here' })).toBeVisible({ timeout: 30_000 });
  await expect(view.getByRole('button', { name: /^−\d+%/ }).first()).toBeVisible();
  await expect(view.getByRole('button', { name: 'Reactivate' })).toBeVisible();
  await expect.poll(async () => (await ledger(showKey)).totals.voided).toBe(1);

  // Sold again, cash, at its own price.
  await view.getByRole('button', { name: 'Sold here' }).click();
  form = view.getByRole('form', { name: /^Sold here/ });
  await form.getByLabel('Show').selectOption({ label: `${hall} (${formatDay('2026-11-28')})` });
  await form.getByLabel('Sold for ($)').fill('230');
  await form.getByRole('button', { name: 'Record the sale' }).click();
  await expect(view.getByText(new RegExp(`^Sold at ${hall} on`))).toContainText(
    'for $230.00 cash.',
    { timeout: 30_000 },
  );
  await expect(view.getByText('Taken off the marketplace and recorded in the ledger.')).toBeVisible(
    { timeout: 30_000 },
  );
  const after = await ledger(showKey);
  expect(after.entries.map((entry) => [entry.priceCents, entry.voided === null])).toEqual([
    [25_000, false],
    [23_000, true],
  ]);
  expect(after.totals).toMatchObject({ cardsSold: 1, cashCents: 23_000, cardCents: 0, voided: 1 });

  // The ledger's rows: the undone one says so and is not counted.
  await page.goto(at(`/shows/${showKey}`));
  const sales = page.getByRole('table', { name: 'Sales at this show' });
  await expect(sales.getByRole('row').filter({ hasText: 'Undone' })).toContainText(
    'Buyer changed his mind',
    { timeout: 30_000 },
  );
  await expect(figure('Cash taken')).toContainText('$230.00');
  await expect(figure('Card payments')).toContainText('$0.00');
  await expect(figure('Undone, not counted')).toContainText('1');
  await expect(figure('Trade value')).toContainText('0 cards taken in trade');
  // On the phone, every figure of the totals whole: none cut.
  const cut = await page
    .getByLabel('Totals')
    .locator('dd')
    .evaluateAll((figures) =>
      figures.filter((dd) => dd.scrollWidth > dd.clientWidth).map((dd) => dd.textContent),
    );
  expect(cut).toEqual([]);

  // The standing sale undone from its ledger row: the totals drop it at once.
  const standing = sales.getByRole('row').filter({ hasText: '$230.00' });
  await standing.getByRole('button', { name: /^Undo this sale/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Undo this sale?' });
  await expect(confirm).toContainText(`Undo the $230.00 cash sale of ${slab.title}?`);
  await confirm.getByRole('button', { name: 'Undo the sale' }).click();
  await expect(figure('Undone, not counted')).toContainText('2', { timeout: 30_000 });
  await expect(figure('Cash taken')).toContainText('$0.00');
  await expect(figure('Cards sold')).toContainText('0');
  await expect(sales.getByRole('button', { name: /^Undo this sale/ })).toHaveCount(0);
  expect((await ledger(showKey)).totals).toMatchObject({ cardsSold: 0, cashCents: 0, voided: 2 });
});

test('a sale made with no network has its receipt at once, marked waiting to be sent', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const slab = await aSlab();
  const show = await newShow();
  context = await browser.newContext(PHONE);
  const page = await context.newPage();
  // The app kept by its service worker, as at a hall before the network goes.
  await page.goto(at('/listings'));
  await expect(page.getByRole('status').filter({ hasText: / of \d+ listings/ })).toBeVisible({
    timeout: 30_000,
  });
  await untilKeptOffline(page);
  const view = await counterView(page, slab.cert);
  await view.getByRole('button', { name: 'Sold here' }).click();
  const form = view.getByRole('form', { name: /^Sold here/ });
  await form
    .getByLabel('Show')
    .selectOption({ label: `${show.name} (${formatDay('2026-11-28')})` });

  await context.setOffline(true);
  await form.getByLabel('Sold for ($)').fill('120');
  const paid = form.getByRole('group', { name: /Paid with/ });
  await paid.getByRole('checkbox', { name: 'Cash' }).uncheck();
  await paid.getByRole('checkbox', { name: 'Other (Venmo, PayPal…)' }).check();
  await form.getByRole('button', { name: 'Record the sale' }).click();
  await expect(form.getByText('Say how it was paid: Venmo, PayPal…')).toBeVisible();
  await form.getByRole('textbox', { name: /Paid by/ }).fill('Venmo');
  await form.getByRole('button', { name: 'Record the sale' }).click();
  await expect(view.getByText(/Saved on this phone/)).toBeVisible({ timeout: 30_000 });
  await expect(view.getByText(new RegExp(`^Sold at ${show.name} on`))).toContainText(
    'for $120.00 by Venmo.',
  );
  // Not undoable until the ledger has it.
  await expect(view.getByRole('button', { name: /^Undo this sale/ })).toHaveCount(0);

  await view.getByRole('link', { name: 'Show receipt' }).click();
  const receipt = page.getByRole('region', { name: /^Receipt R-[0-9A-F]{8}$/ });
  await expect(receipt).toBeVisible({ timeout: 30_000 });
  await expect(receipt.getByText(/^Waiting to be sent/)).toBeVisible();
  await expect(receipt.getByRole('listitem')).toHaveText(['$120.00 by Venmo']);
  await expect(receipt.getByRole('img', { name: /^Code to scan: receipt R-/ })).toBeVisible();
  expect(await ledger(show.key)).toMatchObject({ entries: [] });

  // The network back: the sale reaches the ledger, and the receipt no longer waits.
  await context.setOffline(false);
  await expect(receipt.getByText(/^Waiting to be sent/)).toHaveCount(0, { timeout: 30_000 });
  await expect
    .poll(async () => (await ledger(show.key)).entries.map((entry) => entry.tenders), {
      timeout: 30_000,
    })
    .toEqual([[expect.objectContaining({ kind: 'other', amountCents: 12_000, note: 'Venmo' })]]);

  // An undo with no network is refused plainly, never queued: the ledger keeps the sale.
  await page.goBack();
  const undo = view.getByRole('button', { name: /^Undo this sale/ });
  await expect(undo).toBeVisible({ timeout: 30_000 });
  await context.setOffline(true);
  await undo.click();
  await page
    .getByRole('dialog', { name: 'Undo this sale?' })
    .getByRole('button', { name: 'Undo the sale' })
    .click();
  await expect(view.getByText(/Undoing a sale needs the connection/)).toBeVisible();
  await expect(view.getByRole('button', { name: 'Sold here' })).toHaveCount(0);
  expect((await ledger(show.key)).entries.map((entry) => entry.voided)).toEqual([null]);
});
