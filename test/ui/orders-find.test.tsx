// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../support/sandbox-harness';
import { startDemo } from './support/demo';
import { renderApp } from './support/render-app';
import { readAll } from './support/read-all';
import { orderStage } from '../../src/api/orders/order-stage';
import { Order } from '../../src/client/schemas';

/**
 * Orders you can find (issue 42, item 3): search by player, title, cert or code; filter by stage;
 * a sale newer than the last visit is marked "New" until a visit shows it; rows name the slab.
 */
let harness: Harness;
let token: string;
beforeAll(async () => {
  ({ harness, token } = await startDemo());
});
afterEach(() => cleanup());
afterAll(() => harness?.close());

const summary = () => screen.getByText(/ of \d+ orders/);
const countShown = () => Number(/^(\d+) of/.exec(summary().textContent ?? '')?.[1]);

describe('the Orders page', () => {
  it('finds orders by player, by cert and by code, and filters by stage', async () => {
    const raw = await readAll<unknown>(harness, token, '/orders.json?status=any', 'orders');
    const orders = raw.map((r) => Order.parse(r));
    const listings = await readAll<{
      id: string;
      card: { player?: string | null; cert_number: string };
    }>(harness, token, '/listings.json?status=any', 'listings');
    const byId = new Map(listings.map((l) => [l.id, l]));
    const sold = orders.find((o) => byId.get(o.line_items[0]!.product_id)?.card.player)!;
    const player = byId.get(sold.line_items[0]!.product_id)!.card.player!;
    const surname = player.split(' ').at(-1)!;
    const withPlayer = orders.filter((o) =>
      `${byId.get(o.line_items[0]!.product_id)?.card.player ?? ''} ${o.line_items[0]!.title}`
        .toLowerCase()
        .includes(surname.toLowerCase()),
    ).length;

    const user = userEvent.setup();
    renderApp('/orders?status=any', { baseUrl: harness.url, token });
    await waitFor(() => expect(countShown()).toBe(orders.length), { timeout: 15_000 });
    const box = screen.getByLabelText('Search by player, card, cert or order code');

    await user.type(box, surname);
    await waitFor(() => expect(countShown()).toBe(withPlayer));
    expect(withPlayer).toBeGreaterThan(0);

    await user.clear(box);
    await user.type(box, sold.line_items[0]!.sku);
    await waitFor(() => expect(countShown()).toBe(1));
    const table = screen.getByRole('table', { name: 'Orders' });
    // The row tells the slab apart: its cert is on it.
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent(sold.line_items[0]!.sku);

    await user.clear(box);
    await user.type(box, sold.name.toLowerCase());
    await waitFor(() => expect(countShown()).toBe(1));

    await user.clear(box);
    const paidOut = orders.filter((o) => orderStage(o) === 'paid_out').length;
    await user.selectOptions(screen.getByLabelText('Stage'), 'Paid out');
    await waitFor(() => expect(countShown()).toBe(paidOut));
    expect(paidOut).toBeGreaterThan(0);
    const toShip = orders.filter((o) => orderStage(o) === 'to_ship').length;
    await user.selectOptions(screen.getByLabelText('Stage'), 'To ship');
    await waitFor(() => expect(countShown()).toBe(toShip));
  });

  it('marks a sale made since the last visit "New", and not on the visit after', async () => {
    localStorage.clear();
    renderApp('/orders?status=any', { baseUrl: harness.url, token });
    await waitFor(() => expect(countShown()).toBeGreaterThan(0), { timeout: 15_000 });
    // The first visit marks nothing new.
    expect(screen.queryByText('New')).toBeNull();
    cleanup();

    const active = await readAll<{ id: string; unavailable_reason: string | null }>(
      harness,
      token,
      '/listings.json?status=active',
      'listings',
    );
    const listing = active.find((l) => l.unavailable_reason === null)!;
    const { body } = await harness.control<{ order: { name: string } }>(
      'POST',
      `/listings/${listing.id}/sell`,
      {},
    );
    renderApp(`/orders?status=any&q=${body.order.name}`, { baseUrl: harness.url, token });
    await waitFor(() => expect(screen.getByText('New')).toBeInTheDocument(), { timeout: 15_000 });
    expect(summary()).toHaveTextContent('1 new sale');
    cleanup();

    renderApp(`/orders?status=any&q=${body.order.name}`, { baseUrl: harness.url, token });
    await waitFor(() => expect(countShown()).toBe(1), { timeout: 15_000 });
    expect(screen.queryByText('New')).toBeNull();
  });
});
