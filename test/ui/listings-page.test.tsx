// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../support/sandbox-harness';
import { findProduct, startDemo } from './support/demo';
import { renderApp } from './support/render-app';

let harness: Harness;
let token: string;

beforeAll(async () => {
  ({ harness, token } = await startDemo());
});
afterEach(() => cleanup());
afterAll(() => harness?.close());

const summary = () => screen.getByText(/of \d+ listings/);

describe('the catalogue', () => {
  it('loads every page, then searches by player with the search in the URL', async () => {
    const target = await findProduct(harness, token, (p) => Boolean(p.svc_card.player));
    const player = target.svc_card.player!;
    const { router } = renderApp('/listings', { baseUrl: harness.url, token });
    await waitFor(() => expect(summary().textContent).toMatch(/^600 of 600 listings/), {
      timeout: 60_000,
    });
    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), player);
    await waitFor(() => expect(router.state.location.search).toContain('q='));
    const count = Number(/^(\d+) of/.exec(summary().textContent ?? '')?.[1]);
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(600);
    const table = screen.getByRole('table', { name: 'Listings' });
    const rows = within(table).getAllByRole('row').slice(1);
    for (const row of rows.filter((r) => r.getAttribute('aria-hidden') !== 'true')) {
      expect(row.textContent?.toLowerCase()).toContain(player.toLowerCase().split(' ')[0]);
    }
    // Loading 600 rows, then typing re-filters them a key: past 60 s with every core busy.
  }, 150_000);

  it('reads filters and sort from the URL, and keeps a selection', async () => {
    renderApp('/listings?status=active&grader=PSA&sort=price&dir=desc', {
      baseUrl: harness.url,
      token,
    });
    await waitFor(() => expect(summary().textContent).toMatch(/of 600 listings/), {
      timeout: 60_000,
    });
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('active');
    expect((screen.getByLabelText('Grader') as HTMLSelectElement).value).toBe('PSA');
    const table = screen.getByRole('table', { name: 'Listings' });
    const priceHeader = within(table).getByRole('columnheader', { name: /Price/ });
    expect(priceHeader).toHaveAttribute('aria-sort', 'descending');
    const cells = within(table)
      .getAllByRole('row')
      .slice(1)
      .filter((r) => r.getAttribute('aria-hidden') !== 'true');
    const prices = cells.map((r) =>
      Number((r.children[5]?.textContent ?? '').replace(/[$,]/g, '')),
    );
    expect(prices.length).toBeGreaterThan(3);
    expect([...prices].sort((a, b) => b - a)).toEqual(prices);
    for (const row of cells) expect(row.textContent).toContain('PSA');
    const user = userEvent.setup();
    const boxes = within(table).getAllByRole('checkbox', { name: /^Select (?!all)/ });
    await user.click(boxes[0]!);
    await user.click(boxes[1]!);
    expect(screen.getByText(/2 selected/)).toBeInTheDocument();
  }, 90_000);

  it('windows the table: only the rows in view are in the DOM', async () => {
    renderApp('/listings', { baseUrl: harness.url, token });
    await waitFor(() => expect(summary().textContent).toMatch(/^600 of 600/), { timeout: 15_000 });
    const table = screen.getByRole('table', { name: 'Listings' });
    expect(table).toHaveAttribute('aria-rowcount', '601');
    expect(within(table).getAllByRole('row').length).toBeLessThan(60);
  });

  it('shows an API error with its code and request id', async () => {
    const { token: noScope } = await harness.seller({ scopes: ['read_orders'] });
    renderApp('/listings', { baseUrl: harness.url, token: noScope });
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert.textContent).toContain('insufficient_scope');
    expect(alert.textContent).toContain('read_listings');
    expect(alert.textContent).toMatch(/Request id\s*req_/);
  });
});

describe('incremental refresh', () => {
  it('Refresh reads only what changed and shows the new price', async () => {
    const user = userEvent.setup();
    const target = await findProduct(harness, token, (p) => p.status === 'active' && !p.svc_is_lot);
    renderApp(`/listings?q=${encodeURIComponent(target.svc_card.cert_number)}`, {
      baseUrl: harness.url,
      token,
    });
    await waitFor(() => expect(summary().textContent).toMatch(/^1 of 600 listings/), {
      timeout: 15_000,
    });
    const updated = await harness.api(`/listings/${target.id}.json`, {
      token,
      method: 'PUT',
      body: { listing: { price: '4321.00' } },
    });
    expect(updated.status).toBe(200);
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    const table = screen.getByRole('table', { name: 'Listings' });
    await waitFor(() => expect(within(table).getByText('$4,321.00')).toBeInTheDocument(), {
      timeout: 10_000,
    });
    expect(summary().textContent).toMatch(/last refresh brought [1-9]\d* change/);
  });
});
