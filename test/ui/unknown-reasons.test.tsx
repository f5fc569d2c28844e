// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { startRenamedReasons, type RenamedReasons } from '../support/renamed-reasons';
import { withFullShapes } from '../support/test-shapes';
import { readAll } from './support/read-all';
import { renderApp } from './support/render-app';

/**
 * Sold and never-listed counts read from what the spec promises (a listing archived with reason
 * `sold`, the orders that name a listing, the listings' card ids), against an upstream whose
 * inventory levels give only codes the dashboard never saw. The sandbox serves the documented
 * shapes, so the list view says nothing of why a listing is off the marketplace.
 */
let harness: Harness;
let upstream: RenamedReasons;

interface ProductTruth {
  id: string;
  status: string;
  svc_unavailable_reason: string | null;
  svc_card: { id: string };
  svc_inventory_item_ids: string[];
}

interface OrderLines {
  line_items: { product_id: string; svc_inventory_item_ids: string[] }[];
}

beforeAll(async () => {
  harness = await startHarness({
    seed: 'demo',
    demoListings: 200,
    rateLimit: false,
    shapes: 'documented',
  });
  upstream = await startRenamedReasons(harness.url);
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});
afterAll(async () => {
  await upstream?.close();
  await harness?.close();
});

/** The sandbox's own records in full (products name every member card), not the page's reads. */
const products = () =>
  withFullShapes(harness, () =>
    readAll<ProductTruth>(harness, DEMO_LIVE_TOKEN, '/products.json', 'products'),
  );

describe('an upstream whose reason codes are all unknown', () => {
  it('the upstream gives only made-up level codes', async () => {
    const response = await fetch(`${upstream.url}/2026-07/inventory_levels.json?limit=250`, {
      headers: { 'X-Service-Access-Token': DEMO_LIVE_TOKEN },
    });
    const body = (await response.json()) as {
      inventory_levels: { svc_unavailable_reason?: string | null }[];
    };
    const codes = body.inventory_levels
      .map((level) => level.svc_unavailable_reason)
      .filter((code): code is string => typeof code === 'string');
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.every((code) => code.startsWith('x_'))).toBe(true);
  });

  it('Listings counts as sold exactly the listings that sold, from the orders that name them', async () => {
    const sold = (await products()).filter(
      (p) => p.status === 'archived' && p.svc_unavailable_reason === 'sold',
    ).length;
    expect(sold).toBeGreaterThan(0);

    renderApp('/listings', { baseUrl: upstream.url, token: DEMO_LIVE_TOKEN });
    const summary = () => screen.getByText(/of \d+ listings/);
    await waitFor(() => expect(summary().textContent).toMatch(/of 200 listings/), {
      timeout: 15_000,
    });
    const status = screen.getByLabelText('Status');
    // Sold is known once the orders are read; the levels' codes are offered as given, in words.
    await waitFor(
      () => expect(within(status).getByRole('option', { name: 'Sold' })).toBeInTheDocument(),
      { timeout: 15_000 },
    );
    expect(within(status).getByRole('option', { name: 'X expired' })).toBeInTheDocument();
    await userEvent.setup().selectOptions(status, 'sold');
    await waitFor(() => expect(summary().textContent).toMatch(new RegExp(`^${sold} of 200 `)));
    const table = screen.getByRole('table', { name: 'Listings' });
    const cells = within(table).getAllByRole('cell');
    expect(cells.some((cell) => cell.textContent === 'Sold')).toBe(true);
  });

  it(
    'Inventory finds the cards never listed from the listings, not from a level code',
    {
      timeout: 60_000,
    },
    async () => {
      // The full shapes are read before the page renders; the rest while it loads.
      const all = await products();
      renderApp('/inventory?unlisted=yes', { baseUrl: upstream.url, token: DEMO_LIVE_TOKEN });
      const [items, orders] = await Promise.all([
        readAll<{ id: string }>(
          harness,
          DEMO_LIVE_TOKEN,
          '/inventory_items.json',
          'inventory_items',
        ),
        readAll<OrderLines>(harness, DEMO_LIVE_TOKEN, '/orders.json?status=any', 'orders'),
      ]);
      const everListed = new Set(all.flatMap((p) => p.svc_inventory_item_ids));
      const never = items.filter((item) => !everListed.has(item.id));
      expect(never.length).toBeGreaterThan(0);
      // The list view names only a lot's first card, so a lot that is not on sale and has no order
      // leaves its other cards unnamed by every documented read: those count as never listed too.
      const primaries = new Set(all.map((p) => p.svc_card.id));
      const inOrders = new Set(
        orders.flatMap((o) => o.line_items.flatMap((line) => line.svc_inventory_item_ids)),
      );
      const unnamed = new Set(
        all
          .filter((p) => p.status !== 'active' && p.svc_inventory_item_ids.length > 1)
          .flatMap((p) => p.svc_inventory_item_ids)
          .filter((id) => !primaries.has(id) && !inOrders.has(id)),
      );

      const checkbox = await screen.findByRole(
        'checkbox',
        { name: 'Only cards never listed' },
        { timeout: 15_000 },
      );
      expect(checkbox).toBeChecked();
      await waitFor(
        () =>
          expect(screen.getByText(/of \d+ cards/).textContent).toMatch(
            new RegExp(`^${never.length + unnamed.size} of ${items.length} cards`),
          ),
        { timeout: 30_000 },
      );
      const table = screen.getByRole('table', { name: 'Inventory' });
      expect(within(table).getAllByRole('link', { name: /^List / }).length).toBeGreaterThan(0);
    },
  );
});
