// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../support/sandbox-harness';
import { startDemo } from './support/demo';
import { readAll, type OrderTruth } from './support/read-all';
import { renderApp } from './support/render-app';

let harness: Harness;
let token: string;

beforeAll(async () => {
  ({ harness, token } = await startDemo());
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});
afterAll(() => harness?.close());

const reviewBox = async () => {
  await screen.findByRole('form', { name: 'New listing' }, { timeout: 10_000 });
  return screen.getByRole('checkbox', { name: /Check the card before it goes live/ });
};

describe('check the card before it goes live', () => {
  it('is on by default, and the choice is remembered in this browser', async () => {
    renderApp('/listings/new', { baseUrl: harness.url, token });
    const box = await reviewBox();
    expect(box).toBeChecked();

    await userEvent.setup().click(box);
    expect(box).not.toBeChecked();
    cleanup();

    renderApp('/listings/new', { baseUrl: harness.url, token });
    const again = await reviewBox();
    expect(again).not.toBeChecked();

    await userEvent.setup().click(again);
    cleanup();
    renderApp('/listings/new', { baseUrl: harness.url, token });
    expect(await reviewBox()).toBeChecked();
  });
});

describe('ship to the hub in the navigation', () => {
  it('is a link in the main navigation, with the count of orders waiting once the orders are loaded', async () => {
    const orders = await readAll<OrderTruth>(harness, token, '/orders.json?status=any', 'orders');
    const waiting = orders.filter(
      (o) => o.cancelled_at === null && o.svc_seller_shipment.status === 'pending_shipment',
    ).length;
    expect(waiting).toBeGreaterThan(0);

    renderApp('/', { baseUrl: harness.url, token });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const link = within(nav).getByRole('link', { name: /^Ship to the hub/ });
    expect(link.getAttribute('href')).toBe('/ship-queue');
    // The overview loads the orders; the navigation counts from the same cache.
    await waitFor(() => expect(link.textContent).toBe(`Ship to the hub ${waiting} waiting`), {
      timeout: 15_000,
    });
  });
});
