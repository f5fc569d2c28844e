// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../support/sandbox-harness';
import { startDemo } from '../ui/support/demo';
import { cents, readAll, usd, type ListingTruth, type OrderTruth } from '../ui/support/read-all';
import { renderApp } from '../ui/support/render-app';

let harness: Harness;
let token: string;

beforeAll(async () => {
  ({ harness, token } = await startDemo());
});
afterEach(() => cleanup());
afterAll(() => harness?.close());

describe('the bulk preview and cost', () => {
  it('shows the margin in the grid, flags a price below cost and floors it at break-even', async () => {
    const listings = await readAll<ListingTruth>(harness, token, '/listings.json', 'listings');
    const orders = await readAll<OrderTruth>(harness, token, '/orders.json?status=any', 'orders');
    const items = await readAll<{ id: string; cost: string }>(
      harness,
      token,
      '/inventory_items.json',
      'inventory_items',
    );
    const costs = new Map(items.map((i) => [i.id, i.cost]));
    const counts = new Map<number, number>();
    for (const o of orders) {
      if (o.cancelled_at !== null || o.svc_payout.status !== 'paid') continue;
      const bp = Math.round((cents(o.svc_payout.platform_fee) * 10_000) / cents(o.subtotal_price));
      counts.set(bp, (counts.get(bp) ?? 0) + 1);
    }
    const base = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
    const rows = listings
      .filter((l) => l.status === 'active' && Number(costs.get(l.card.id) ?? 0) > 20)
      .slice(0, 2);
    expect(rows).toHaveLength(2);
    const target = rows[0]!;
    const single = await harness.api(`/listings/${target.id}.json`, { token });
    const promoted = ((await single.json()) as { listing: { promoted?: boolean } }).listing
      .promoted;
    const bp = base + (promoted === true ? 300 : 0);
    const cost = cents(costs.get(target.card.id)!);
    let breakEven = cost;
    while (breakEven - Math.round((breakEven * bp) / 10_000) < cost) breakEven++;
    const margin = 1000 - Math.round((1000 * bp) / 10_000) - cost;

    renderApp(`/listings/bulk-edit?ids=${rows.map((r) => r.id).join(',')}`, {
      baseUrl: harness.url,
      token,
    });
    await screen.findByRole('table', { name: 'Bulk edit grid, 2 listings' }, { timeout: 15_000 });
    const user = userEvent.setup();
    const index = rows.indexOf(target) + 1;
    const price = screen.getByRole('textbox', { name: `Price, row ${index}` }) as HTMLInputElement;
    await user.clear(price);
    await user.type(price, '10.00');
    // The grid's Margin column follows the price as typed.
    const marginCell = () => within(price.closest('tr')!).getAllByRole('cell').at(-1)!.textContent;
    await waitFor(() => expect(marginCell()).toBe(`${usd(margin)} (below cost)`));
    await user.click(screen.getByRole('button', { name: 'Preview changes' }));
    const notice = await screen.findByRole(
      'region',
      { name: '1 listing would sell below cost' },
      { timeout: 15_000 },
    );
    const cells = within(notice)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(1)).toEqual(['$10.00', usd(margin), usd(breakEven)]);
    await user.click(within(notice).getByRole('button', { name: 'Floor them at break-even' }));
    await waitFor(() => expect(price.value).toBe((breakEven / 100).toFixed(2)));
    expect(screen.queryByRole('region', { name: /would sell below cost/ })).toBeNull();
  });
});
