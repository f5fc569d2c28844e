// @vitest-environment jsdom
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { useDemoSandbox } from '../ui/support/demo';
import { renderApp } from '../ui/support/render-app';

/**
 * The counter view at the table, on the real app over our server (the show ledger) in front of a
 * real sandbox: a slab is sold once, and each scan shows that slab's own numbers.
 */
const demo = useDemoSandbox();
let app: RunningAppServer;
let showKey: string;
const SHOW = 'Philly Card Show';

/** The browser's day, as the sale form picks today's show. */
const localDay = (at = new Date()) =>
  `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;

beforeAll(async () => {
  const folder = mkdtempSync(join(tmpdir(), 'slabdesk-dist-'));
  mkdirSync(join(folder, 'assets'));
  writeFileSync(join(folder, 'index.html'), '<!doctype html><title>t</title>');
  app = await startAppServer(
    {
      upstream: { baseUrl: demo.harness.url, apiKey: demo.token },
      port: 0,
      activity: { path: ':memory:' },
    },
    async () => distPages(folder),
  );
  showKey = randomUUID();
  const made = await fetch(`${app.url}/hub/shows`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: showKey, name: SHOW, date: localDay() }),
  });
  expect(made.status).toBe(201);
});
afterAll(() => app?.close());

/** Active single slabs whose cert is theirs alone, each priced apart from the amounts used here. */
let taken = 0;
function freshSlab() {
  const certs = new Map<string, number>();
  for (const p of demo.products) {
    certs.set(p.svc_card.cert_number, (certs.get(p.svc_card.cert_number) ?? 0) + 1);
  }
  const slabs = demo.products.filter(
    (p) =>
      p.status === 'active' &&
      p.svc_unavailable_reason === null &&
      !p.svc_is_lot &&
      certs.get(p.svc_card.cert_number) === 1 &&
      !['250.00', '265.00', '300.00'].includes(p.variants[0]!.price),
  );
  const slab = slabs[taken++];
  if (!slab) throw new Error('out of slabs');
  return { id: slab.id, cert: slab.svc_card.cert_number, price: slab.variants[0]!.price };
}

function open(path: string) {
  const client = createClient({
    baseUrl: `${app.url}/api`,
    retry: { unavailableBudgetSeconds: 0, transient: 0 },
  });
  return renderApp(path, { baseUrl: app.url, token: '', client });
}

/** The counter view of a cert, once its slab is found. */
const counterOf = (cert: string) =>
  screen.findByRole('region', { name: new RegExp(`cert ${cert}`) }, { timeout: 20_000 });

async function ledgerSalesOf(listingId: string) {
  const answer = await fetch(`${app.url}/hub/shows/${showKey}`);
  const page = (await answer.json()) as { entries: { listingId: string; priceCents: number }[] };
  return page.entries.filter((entry) => entry.listingId === listingId);
}

/** A sale recorded by another phone, straight into the ledger. */
async function soldOnAnotherPhone(listingId: string, price: string) {
  const answer = await fetch(`${app.url}/hub/shows/${showKey}/entries`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      key: randomUUID(),
      soldAt: new Date().toISOString(),
      listingId,
      title: 'Sold on another phone',
      price,
      soldOnline: false,
      offMarket: 'deactivated',
    }),
  });
  expect(answer.status).toBe(201);
}

/**
 * "Sold at Philly Card Show on Nov 28 for $250.00 cash.": the note's whole sentence (its date is
 * a figure of its own, so the text spans elements).
 */
const saleNote =
  (price: string) =>
  (_: string, element: Element | null): boolean =>
    element?.tagName === 'STRONG' &&
    new RegExp(`^Sold at ${SHOW} on .+ for \\$${price.replace('.', '\\.')} cash\\.$`).test(
      element.textContent ?? '',
    );

/** Nothing left to sell on the counter view: no Sold here, no price cut, no reactivation. */
function expectNothingToSell(view: HTMLElement) {
  expect(within(view).queryByRole('button', { name: 'Sold here' })).toBeNull();
  expect(within(view).queryByRole('form', { name: 'New price' })).toBeNull();
  expect(within(view).queryByRole('button', { name: /^−\d+%/ })).toBeNull();
  expect(within(view).queryByRole('button', { name: 'Reactivate' })).toBeNull();
  expect(within(view).queryByRole('button', { name: 'Deactivate' })).toBeNull();
}

type User = ReturnType<typeof userEvent.setup>;

/** The counter view of `cert`, its Sold here form opened. */
async function openSaleForm(user: User, cert: string) {
  const view = await counterOf(cert);
  await user.click(await within(view).findByRole('button', { name: 'Sold here' }));
  return { view, form: within(view).getByRole('form', { name: /^Sold here/ }) };
}

/** Types `amount` as the sale's price, in place of the one offered. */
async function typeSoldFor(user: User, form: HTMLElement, amount: string) {
  const field = within(form).getByLabelText('Sold for ($)');
  await user.clear(field);
  await user.type(field, amount);
}

describe('the counter view at the table', () => {
  it('sells slab A for 250, then a scan of slab B shows B’s own price; B’s new price is its sale amount; A scanned again is sold', async () => {
    const user = userEvent.setup();
    const a = freshSlab();
    const b = freshSlab();
    expect(b.price).not.toBe(a.price);
    const { router } = open(`/show/cert/${a.cert}`);
    let view = await counterOf(a.cert);
    await user.click(await within(view).findByRole('button', { name: 'Sold here' }));
    const form = within(view).getByRole('form', { name: /^Sold here/ });
    expect(within(form).getByLabelText('Sold for ($)')).toHaveValue(a.price);
    await typeSoldFor(user, form, '250');
    await user.click(within(form).getByRole('button', { name: 'Record the sale' }));
    await within(view).findByText(
      'Taken off the marketplace and recorded in the ledger.',
      {},
      { timeout: 15_000 },
    );
    expect(await ledgerSalesOf(a.id)).toEqual([expect.objectContaining({ priceCents: 25_000 })]);

    // The next scan: slab B, with nothing of A's numbers.
    await act(() => router.navigate(`/show/cert/${b.cert}`));
    view = await counterOf(b.cert);
    expect(within(view).queryByText(/Price now/)).toBeNull();
    expect(within(view).queryByRole('form', { name: /^Sold here/ })).toBeNull();
    await user.click(await within(view).findByRole('button', { name: 'Sold here' }));
    const formB = within(view).getByRole('form', { name: /^Sold here/ });
    const amount = within(formB).getByLabelText('Sold for ($)');
    expect(amount).toHaveValue(b.price);
    expect(amount).not.toHaveValue('250');

    // A new price on B: the sale form offers it.
    await user.type(within(view).getByRole('textbox', { name: 'New price' }), '265');
    await user.click(within(view).getByRole('button', { name: 'Set price' }));
    await within(view).findByText('Price now $265.00.', {}, { timeout: 15_000 });
    await waitFor(() => expect(amount).toHaveValue('265.00'));

    // A scanned again: sold, said first; nothing to sell.
    await act(() => router.navigate(`/show/cert/${a.cert}`));
    view = await counterOf(a.cert);
    await within(view).findByText(saleNote('250.00'));
    expectNothingToSell(view);
    expect(within(view).queryByText(/Price now/)).toBeNull();
    expect(await ledgerSalesOf(a.id)).toHaveLength(1);
  });

  it('Cancel closes the sale form and keeps what was typed for the next opening', async () => {
    const user = userEvent.setup();
    const slab = freshSlab();
    open(`/show/cert/${slab.cert}`);
    const { view, form } = await openSaleForm(user, slab.cert);
    await typeSoldFor(user, form, '123');
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(within(view).queryByRole('form', { name: /^Sold here/ })).toBeNull();
    await user.click(within(view).getByRole('button', { name: 'Sold here' }));
    const again = within(view).getByRole('form', { name: /^Sold here/ });
    expect(within(again).getByLabelText('Sold for ($)')).toHaveValue('123');
    expect(within(again).getByLabelText('Show')).toHaveValue(showKey);
    expect(await ledgerSalesOf(slab.id)).toEqual([]);
  });

  it('a slab sold on another phone: its counter view says where, when and for how much, and offers nothing to sell', async () => {
    const slab = freshSlab();
    await soldOnAnotherPhone(slab.id, '300.00');
    open(`/show/cert/${slab.cert}`);
    const view = await counterOf(slab.cert);
    await within(view).findByText(saleNote('300.00'), {}, { timeout: 15_000 });
    expectNothingToSell(view);
    expect(within(view).getByText('Sold')).toBeInTheDocument();
  });

  it('a sale made before this phone knew of another phone’s sale is refused by the ledger and held, named', async () => {
    const user = userEvent.setup();
    const slab = freshSlab();
    open(`/show/cert/${slab.cert}`);
    const { view, form } = await openSaleForm(user, slab.cert);
    // Meanwhile, the other phone at the table sells it first.
    await soldOnAnotherPhone(slab.id, '300.00');
    await typeSoldFor(user, form, '240');
    await user.click(within(form).getByRole('button', { name: 'Record the sale' }));
    const held = await within(view).findByRole('alert', {}, { timeout: 15_000 });
    expect(held).toHaveTextContent(
      /Not recorded: This slab was already sold at Philly Card Show on \w{3} \d{1,2}, \d{4} for \$300\.00 cash/,
    );
    await within(view).findByText(saleNote('300.00'));
    expectNothingToSell(view);
    expect(await ledgerSalesOf(slab.id)).toEqual([expect.objectContaining({ priceCents: 30_000 })]);
  });

  it('a typed price 10 times the last asks once: no leaves the price, yes sets it', async () => {
    const user = userEvent.setup();
    let slab = freshSlab();
    while (Number(slab.price) * 10 > 1_000_000) slab = freshSlab();
    const tenfold = (Number(slab.price) * 10).toFixed(2);
    open(`/show/cert/${slab.cert}`);
    const view = await counterOf(slab.cert);
    const setPrice = async () => {
      await user.clear(within(view).getByRole('textbox', { name: 'New price' }));
      await user.type(within(view).getByRole('textbox', { name: 'New price' }), tenfold);
      await user.click(within(view).getByRole('button', { name: 'Set price' }));
      return screen.findByRole('dialog', { name: 'Save this price?' });
    };
    const ask = await setPrice();
    expect(ask).toHaveTextContent(/ is 10 times \$[\d,.]+, its price now\. Save it\?/);
    await user.click(within(ask).getByRole('button', { name: "Don't save" }));
    expect(screen.queryByRole('dialog')).toBeNull();
    const stored = async () =>
      (
        await demo.harness.control<{ product: { variants: { price: string }[] } }>(
          'GET',
          `/listings/${slab.id}`,
        )
      ).body.product.variants[0]!.price;
    expect(await stored()).toBe(slab.price);
    await user.click(within(await setPrice()).getByRole('button', { name: 'Save it' }));
    const words = Number(tenfold).toLocaleString('en-US', { minimumFractionDigits: 2 });
    await within(view).findByText(`Price now $${words}.`, {}, { timeout: 15_000 });
    expect(await stored()).toBe(tenfold);
  });
});
