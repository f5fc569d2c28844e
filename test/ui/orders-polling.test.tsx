// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../support/sandbox-harness';
import { renderApp } from './support/render-app';
import { startHarness } from '../support/sandbox-harness';

let harness: Harness;
let seller: { sellerId: string; token: string };

/** A fresh seller with `count` sold listings: `count` open orders. */
async function sellCards(count: number): Promise<{ id: string; name: string }[]> {
  const orders: { id: string; name: string }[] = [];
  for (let i = 0; i < count; i++) {
    const item = await harness.control<{ inventory_item: { id: string } }>(
      'POST',
      '/inventory_items',
      {
        seller_id: seller.sellerId,
        cert_number: `7700${i}${Date.now() % 1000}`,
        grader: 'PSA',
        grade: '8',
        title: `Poll Card ${i}`,
      },
    );
    const created = await harness.api('/listings.json', {
      token: seller.token,
      method: 'POST',
      body: { listing: { inventory_item_id: item.body.inventory_item.id, price: '50.00' } },
    });
    const listing = ((await created.json()) as { listing: { id: string } }).listing;
    const sold = await harness.control<{ order: { id: string; name: string } }>(
      'POST',
      `/listings/${listing.id}/sell`,
      {},
    );
    orders.push(sold.body.order);
  }
  return orders;
}

beforeAll(async () => {
  harness = await startHarness({ rateLimit: false });
  seller = await harness.seller();
});
afterEach(() => cleanup());
afterAll(() => harness?.close());

describe('open orders refresh on their own', () => {
  it('the list drops an order that was cancelled meanwhile (polling with updated_at_min)', async () => {
    const orders = await sellCards(3);
    renderApp('/orders?status=open', { baseUrl: harness.url, token: seller.token });
    await waitFor(() => expect(screen.getByText(/^3 of 3 orders/)).toBeInTheDocument(), {
      timeout: 10_000,
    });
    await harness.control('POST', `/orders/${orders[1]!.id}/cancel`, { reason: 'buyer' });
    await waitFor(() => expect(screen.getByText(/^2 of 2 orders/)).toBeInTheDocument(), {
      timeout: 12_000,
    });
    const table = screen.getByRole('table', { name: 'Orders' });
    expect(within(table).queryByRole('link', { name: orders[1]!.name })).toBeNull();
    expect(within(table).getByRole('link', { name: orders[0]!.name })).toBeInTheDocument();
  }, 30_000);

  it('an open order’s timeline moves when it ships to the hub', async () => {
    const [order] = await sellCards(1);
    renderApp(`/orders/${order!.id}`, { baseUrl: harness.url, token: seller.token });
    const timeline = await screen.findByRole(
      'list',
      { name: 'Order timeline' },
      { timeout: 10_000 },
    );
    const shipped = () => within(timeline).getAllByRole('listitem')[1]!;
    expect(shipped().className).toBe('pending');
    expect(shipped().textContent).toMatch(/Ship by .* cancel after/);
    await harness.control('POST', `/orders/${order!.id}/advance`, {});
    await waitFor(() => expect(shipped().className).toBe('done'), { timeout: 12_000 });
    expect(shipped().textContent).toMatch(/Tracking/);
  }, 30_000);
});
