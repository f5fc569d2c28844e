// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client';
import { DEMO_SELLER_ID } from '../../src/sandbox';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { fakeDist } from '../security/auth-http';
import { useDemoSandbox } from '../ui/support/demo';
import { renderApp } from '../ui/support/render-app';

/**
 * The counter view knows the slab (issue 51, point 5) on the real app, a real hub in front of a
 * real sandbox: the seller's recent sales of the same card and grade.
 */
const demo = useDemoSandbox();

let certs = 8_100_000_000;

/** A card made in the sandbox's inventory (a new cert each time), listed at `price`. */
async function listedCard(card: Record<string, unknown>, price: string) {
  const cert = String(certs++);
  const made = await demo.harness.control<{ inventory_item: { id: string } }>(
    'POST',
    '/inventory_items',
    { seller_id: DEMO_SELLER_ID, cert_number: cert, category: 'Basketball', ...card },
  );
  expect(made.status).toBe(200);
  const listed = await demo.harness.api('/listings.json', {
    token: demo.token,
    method: 'POST',
    body: { listing: { inventory_item_id: made.body.inventory_item.id, price } },
  });
  expect(listed.status, await listed.clone().text()).toBe(201);
  const { listing } = (await listed.json()) as { listing: { id: string } };
  return { cert, listingId: listing.id, itemId: made.body.inventory_item.id };
}

/** A buyer checks out the listing, then the sandbox's clock moves on a day. */
async function soldOnline(listingId: string) {
  const sold = await demo.harness.control('POST', `/listings/${listingId}/sell`, {});
  expect(sold.status).toBe(200);
  await demo.harness.control('POST', '/clock', { advance_seconds: 86_400 });
}

const dollars = (amount: string) =>
  Number(amount).toLocaleString('en-US', { style: 'currency', currency: 'USD' });

/** Made before the first page opens, so the hub's first fill holds them all. */
const slabs = {} as Record<
  'onHand' | 'lonely' | 'noCost' | 'atShow',
  { cert: string; listingId: string; itemId: string }
>;

beforeAll(async () => {
  const card = {
    grader: 'PSA',
    grade: '9',
    title: '1999 Test Prizm Counter Rookie #7',
    year: 1999,
    set: 'Test Prizm',
  };
  const older = await listedCard(card, '111.00');
  const newer = await listedCard(card, '222.00');
  const otherGrade = await listedCard({ ...card, grade: '8' }, '333.00');
  const otherYear = await listedCard({ ...card, year: 2000 }, '444.00');
  for (const sold of [older, otherGrade, newer, otherYear]) await soldOnline(sold.listingId);
  slabs.onHand = await listedCard(card, '250.00');
  // Sold at a show (below): deactivated on the marketplace, in the hub's ledger.
  slabs.atShow = await listedCard(card, '275.00');
  slabs.lonely = await listedCard(
    { grader: 'BGS', grade: '9.5', title: '2003 Test Chrome Lonely #1', year: 2003, set: 'TC' },
    '99.00',
  );
  slabs.noCost = await listedCard(
    { grader: 'SGC', grade: '8', title: '1975 Test Topps Costless #2', year: 1975, set: 'TT' },
    '180.00',
  );
});

/** A hub with a show ledger, the page rendered through it (as a phone at the table is). */
let ledgerHub: RunningAppServer;
const SHOW = 'Test Card Expo';

beforeAll(async () => {
  ledgerHub = await startAppServer(
    {
      upstream: { baseUrl: demo.harness.url, apiKey: demo.token },
      port: 0,
      activity: { path: ':memory:' },
    },
    async () => distPages(fakeDist()),
  );
  const showKey = randomUUID();
  const post = (path: string, body: unknown) =>
    fetch(`${ledgerHub.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  expect((await post('/hub/shows', { key: showKey, name: SHOW, date: '2026-11-20' })).status).toBe(
    201,
  );
  const sold = await post(`/hub/shows/${showKey}/entries`, {
    key: randomUUID(),
    soldAt: '2026-11-20T18:00:00.000Z',
    listingId: slabs.atShow.listingId,
    title: '1999 Test Prizm Counter Rookie #7',
    price: '275.00',
    soldOnline: false,
    offMarket: 'deactivated',
  });
  expect(sold.status).toBe(201);
});
afterAll(() => ledgerHub?.close());

describe('the counter view knows the slab', () => {
  it('lists the recent sales of the same card and grade, newest first, and no other card', async () => {
    const { onHand } = slabs;
    renderApp(`/show/cert/${onHand.cert}`, { baseUrl: demo.harness.url, token: demo.token });
    const table = await screen.findByRole(
      'table',
      { name: 'Recent sales of this card' },
      { timeout: 30_000 },
    );
    await waitFor(
      () => {
        const rows = within(table).getAllByRole('row').slice(1);
        expect(rows.map((row) => within(row).getAllByRole('cell')[1]?.textContent)).toEqual([
          dollars('222.00'),
          dollars('111.00'),
        ]);
      },
      { timeout: 30_000 },
    );
    const rows = within(table).getAllByRole('row').slice(1);
    for (const row of rows) {
      expect(row).toHaveTextContent('Online');
      // A date a seller reads ("Nov 28"), never the timestamp.
      expect(within(row).getAllByRole('cell')[0]).toHaveTextContent(/^[A-Z][a-z]{2} \d{1,2}/);
    }
  }, 60_000);

  it('says so when the card has no sales yet', async () => {
    const { lonely } = slabs;
    renderApp(`/show/cert/${lonely.cert}`, { baseUrl: demo.harness.url, token: demo.token });
    const section = await screen.findByRole(
      'region',
      { name: 'Recent sales of this card' },
      { timeout: 30_000 },
    );
    await within(section).findByText('No sales of this card yet.', {}, { timeout: 30_000 });
  }, 60_000);

  it('sets the cost in place, kept by the hub, and the margin follows', async () => {
    const user = userEvent.setup();
    const { noCost } = slabs;
    renderApp(`/show/cert/${noCost.cert}`, { baseUrl: demo.harness.url, token: demo.token });
    const facts = (label: string) =>
      screen.getByText(label, { selector: 'dt' }).nextElementSibling as HTMLElement;
    await screen.findByText('Cost', { selector: 'dt' }, { timeout: 30_000 });
    await waitFor(() => expect(facts('Cost')).toHaveTextContent('not set'), { timeout: 30_000 });
    // The fee rate is learned from the paid orders: the net is known before the cost is.
    await waitFor(() => expect(facts('Nets online')).toHaveTextContent(/^\$/), {
      timeout: 30_000,
    });
    expect(facts('Margin')).toHaveTextContent('—');
    const form = screen.getByRole('form', { name: 'Cost' });
    expect(form).toHaveAccessibleDescription(
      "Kept by Slabdesk: the marketplace's API has no way to set a cost.",
    );
    await user.type(within(form).getByLabelText('Cost ($)'), '120.5');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(facts('Cost')).toHaveTextContent('$120.50 set in Slabdesk'), {
      timeout: 30_000,
    });
    // Margin = the net shown less the cost, to the cent.
    const netCents = Math.round(
      Number(/\$([\d,.]+)/.exec(facts('Nets online').textContent)![1]!.replace(/,/g, '')) * 100,
    );
    const margin = (netCents - 12_050) / 100;
    expect(facts('Margin')).toHaveTextContent(
      margin.toLocaleString('en-US', { style: 'currency', currency: 'USD' }),
    );
    // Kept by the hub in front, as any other device reads it.
    const kept = (await (await fetch(`${demo.harness.url}/hub/costs`)).json()) as {
      costs: { itemId: string; cost: string }[];
    };
    expect(kept.costs).toContainEqual(
      expect.objectContaining({ itemId: noCost.itemId, cost: '120.50' }),
    );
    // The marketplace's own record is untouched: it has no write of a cost.
    const row = demo.harness.sandbox.context.store.db
      .prepare('SELECT cost_cents FROM inventory_items WHERE id = ?')
      .get(noCost.itemId) as { cost_cents: number };
    expect(row.cost_cents).toBe(0);
  }, 90_000);

  it('refuses a cost that is not an amount, and saves nothing', async () => {
    const user = userEvent.setup();
    const { lonely } = slabs;
    renderApp(`/show/cert/${lonely.cert}`, { baseUrl: demo.harness.url, token: demo.token });
    const form = await screen.findByRole('form', { name: 'Cost' }, { timeout: 30_000 });
    await user.type(within(form).getByLabelText('Cost ($)'), '12.345');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/must be an amount like 120\.50/);
    expect(within(form).getByLabelText('Cost ($)')).toHaveAttribute('aria-invalid', 'true');
  }, 60_000);

  it('counts a sale at a show from the hub’s ledger, said as such', async () => {
    const client = createClient({
      baseUrl: `${ledgerHub.url}/api`,
      retry: { unavailableBudgetSeconds: 0, transient: 0 },
    });
    renderApp(`/show/cert/${slabs.onHand.cert}`, { baseUrl: ledgerHub.url, token: '', client });
    const table = await screen.findByRole(
      'table',
      { name: 'Recent sales of this card' },
      { timeout: 30_000 },
    );
    await waitFor(
      () => {
        const rows = within(table).getAllByRole('row').slice(1);
        expect(rows.map((row) => row.textContent)).toContainEqual(
          expect.stringMatching(/\$275\.00.*At Test Card Expo/),
        );
        expect(rows).toHaveLength(3);
      },
      { timeout: 30_000 },
    );
  }, 60_000);
});
