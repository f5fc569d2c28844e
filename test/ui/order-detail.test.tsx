// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../support/sandbox-harness';
import { startDemo } from './support/demo';
import { renderApp } from './support/render-app';

let harness: Harness;
let token: string;

beforeAll(async () => {
  ({ harness, token } = await startDemo());
});
afterEach(() => cleanup());
afterAll(() => harness?.close());

describe('an order', () => {
  it('shows the lifecycle as a timeline that moves when the order advances, and the money', async () => {
    const { token: sellerToken, sellerId } = await harness.seller();
    const item = await harness.control<{ inventory_item: { id: string } }>(
      'POST',
      '/inventory_items',
      {
        seller_id: sellerId,
        cert_number: '31415926',
        grader: 'PSA',
        grade: '9',
        title: '2020 Test Card PSA 9',
      },
    );
    const created = await harness.api('/listings.json', {
      token: sellerToken,
      method: 'POST',
      body: { listing: { inventory_item_id: item.body.inventory_item.id, price: '100.00' } },
    });
    const listing = ((await created.json()) as { listing: { id: string } }).listing;
    const sold = await harness.control<{ order: { id: string; name: string } }>(
      'POST',
      `/listings/${listing.id}/sell`,
      {},
    );
    const order = sold.body.order;
    await harness.control('POST', `/orders/${order.id}/advance`, {});

    renderApp(`/orders/${order.name}`, { baseUrl: harness.url, token: sellerToken });
    await screen.findByRole('heading', { name: `Order ${order.name}` }, { timeout: 10_000 });
    const timeline = screen.getByRole('list', { name: 'Order timeline' });
    const steps = within(timeline).getAllByRole('listitem');
    expect(steps.map((s) => s.querySelector('.timeline-label')?.textContent)).toEqual([
      'Sold',
      'Shipped to the hub',
      'Delivered to the hub',
      'Authenticated',
      'Shipped to the buyer',
      'Delivered to the buyer',
      'Paid out',
    ]);
    expect(steps[1]!.className).toBe('done');
    expect(steps[1]!.textContent).toMatch(/Tracking/);
    expect(steps[2]!.className).toBe('pending');
    const money = screen.getByRole('region', { name: 'Money' });
    expect(within(money).getByText('Subtotal').nextElementSibling?.textContent).toBe('$100.00');
    expect(within(money).getByText('Platform fee')).toBeInTheDocument();
  });

  it('a single order without total_tax (the narrower reading of the spec) shows, tax "Not shown by the API"', async () => {
    const { token: sellerToken, sellerId } = await harness.seller();
    const item = await harness.control<{ inventory_item: { id: string } }>(
      'POST',
      '/inventory_items',
      {
        seller_id: sellerId,
        cert_number: '27182818',
        grader: 'PSA',
        grade: '10',
        title: '2021 Narrow Reading PSA 10',
      },
    );
    const created = await harness.api('/listings.json', {
      token: sellerToken,
      method: 'POST',
      body: { listing: { inventory_item_id: item.body.inventory_item.id, price: '120.00' } },
    });
    const listing = ((await created.json()) as { listing: { id: string } }).listing;
    const sold = await harness.control<{ order: { id: string; name: string } }>(
      'POST',
      `/listings/${listing.id}/sell`,
      {},
    );
    // The documented-only shapes: the single view leaves `total_tax` out, as a server may.
    const context = harness.sandbox.context;
    const shapes = context.shapes;
    context.shapes = 'documented';
    try {
      const single = await harness.api(`/orders/${sold.body.order.id}.json`, {
        token: sellerToken,
      });
      const served = ((await single.json()) as { order: Record<string, unknown> }).order;
      expect(served).not.toHaveProperty('total_tax');
      expect(served).toHaveProperty('subtotal_price', '120.00');

      renderApp(`/orders/${sold.body.order.name}`, { baseUrl: harness.url, token: sellerToken });
      await screen.findByRole(
        'heading',
        { name: `Order ${sold.body.order.name}` },
        { timeout: 10_000 },
      );
      const money = screen.getByRole('region', { name: 'Money' });
      expect(within(money).getByText('Tax').nextElementSibling?.textContent).toBe(
        'Not shown by the API',
      );
      expect(within(money).getByText('Subtotal').nextElementSibling?.textContent).toBe('$120.00');
    } finally {
      context.shapes = shapes;
    }
  });

  it('a missing order shows not_found with its request id', async () => {
    renderApp('/orders/ord_missing', { baseUrl: harness.url, token });
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert.textContent).toContain('not_found');
    expect(alert.textContent).toMatch(/req_/);
  });
});
