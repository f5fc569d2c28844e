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

// Whole flows, each waiting on what the seller sees: on a busy machine their sum passes the 30 s default.
describe('the bulk preview and cost', { timeout: 120_000 }, () => {
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
    // The first page of the file waits on the hub's first fill, as in bulk-apply.
    await screen.findByRole('table', { name: 'Bulk edit grid, 2 listings' }, { timeout: 40_000 });
    const user = userEvent.setup();
    const index = rows.indexOf(target) + 1;
    const price = screen.getByRole('textbox', { name: `Price, row ${index}` }) as HTMLInputElement;
    await user.clear(price);
    await user.type(price, '10.00');
    // The grid's Margin column follows the price as typed, once the cards' costs have been read.
    const marginCell = () => within(price.closest('tr')!).getAllByRole('cell').at(-1)!.textContent;
    await waitFor(() => expect(marginCell()).toBe(`${usd(margin)} (below cost)`), {
      timeout: 15_000,
    });
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
    // Floored, the warning is resolved: Apply no longer waits.
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(within(preview).getByRole('button', { name: 'Apply 1 change' })).toBeEnabled();
  });
});

describe('the bulk apply asks in proportion', { timeout: 120_000 }, () => {
  type Titled = ListingTruth & { title: string };
  const stored = async (id: string) => {
    const response = await harness.api(`/listings/${id}.json`, { token });
    return ((await response.json()) as { listing: { price: string } }).listing.price;
  };
  async function openEditor(ids: string[]) {
    renderApp(`/listings/bulk-edit?ids=${ids.join(',')}`, { baseUrl: harness.url, token });
    await screen.findByRole(
      'table',
      { name: `Bulk edit grid, ${ids.length} listing${ids.length === 1 ? '' : 's'}` },
      { timeout: 40_000 },
    );
    return userEvent.setup();
  }

  it('holds Apply while a price below cost is unresolved, and applies it once ticked', async () => {
    const listings = await readAll<Titled>(harness, token, '/listings.json', 'listings');
    const items = await readAll<{ id: string; cost: string }>(
      harness,
      token,
      '/inventory_items.json',
      'inventory_items',
    );
    const costs = new Map(items.map((i) => [i.id, Number(i.cost)]));
    // The second card of the first test's pick: a cost over $20, sold here for $10.
    const target = listings.filter(
      (l) => l.status === 'active' && (costs.get(l.card.id) ?? 0) > 20,
    )[1]!;
    const user = await openEditor([target.id]);
    const price = screen.getByRole('textbox', { name: 'Price, row 1' });
    await user.clear(price);
    await user.type(price, '10.00');
    await user.click(screen.getByRole('button', { name: 'Preview changes' }));
    const notice = await screen.findByRole(
      'region',
      { name: '1 listing would sell below cost' },
      { timeout: 15_000 },
    );
    const apply = within(screen.getByRole('region', { name: 'Preview' })).getByRole('button', {
      name: 'Apply 1 change',
    });
    expect(apply).toBeDisabled();
    expect(apply).toHaveAccessibleDescription(
      'Apply waits on the 1 price below cost: leave them out, floor them, or tick “Sell this one below cost”.',
    );
    await user.click(apply);
    expect(screen.queryByRole('heading', { name: /^Applying:|^Finished:/ })).toBeNull();
    await user.click(within(notice).getByRole('checkbox', { name: 'Sell this one below cost' }));
    expect(apply).toBeEnabled();
    await user.click(apply);
    // $10 is under a third of any price the demo gives a card that cost over $20: one question.
    const ask = screen.getByRole('dialog', { name: 'Apply 1 change?' });
    const lowered = usd(cents(target.price) - 1000);
    expect(ask).toHaveTextContent(`Lower 1 price by ${lowered} in all.`);
    expect(ask).toHaveTextContent('Sell 1 listing below cost, as you chose.');
    expect(
      within(within(ask).getByRole('list', { name: 'Prices far from the price now' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([expect.stringMatching(/: \$10\.00 is \d+% of \$/)]);
    await user.click(within(ask).getByRole('button', { name: 'Yes, apply 1 change' }));
    await screen.findByRole('heading', { name: /^Finished:/ }, { timeout: 15_000 });
    expect(await stored(target.id)).toBe('10.00');
  });

  it('asks before a run past 20 changes, naming the count and the money, and sends nothing on Cancel', async () => {
    const listings = await readAll<Titled>(harness, token, '/listings.json', 'listings');
    const rows = listings.filter((l) => l.status === 'active').slice(10, 35);
    expect(rows).toHaveLength(25);
    const user = await openEditor(rows.map((r) => r.id));
    await user.selectOptions(screen.getByLabelText('Price change'), 'raise-amount');
    await user.type(screen.getByLabelText('Amount (USD)'), '1');
    await user.click(screen.getByRole('button', { name: 'Apply price change' }));
    await user.click(screen.getByRole('button', { name: 'Preview changes' }));
    const preview = await screen.findByRole('region', { name: 'Preview' }, { timeout: 15_000 });
    const apply = within(preview).getByRole('button', { name: 'Apply 25 changes' });
    await waitFor(() => expect(apply).toBeEnabled(), { timeout: 15_000 });
    await user.click(apply);
    const ask = screen.getByRole('dialog', { name: 'Apply 25 changes?' });
    expect(
      within(ask)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Raise 25 prices by $25.00 in all.']);
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await stored(rows[0]!.id)).toBe(rows[0]!.price);
    await user.click(apply);
    await user.click(
      within(screen.getByRole('dialog', { name: 'Apply 25 changes?' })).getByRole('button', {
        name: 'Yes, apply 25 changes',
      }),
    );
    await screen.findByRole('heading', { name: /^Finished:/ }, { timeout: 30_000 });
    expect(await stored(rows[0]!.id)).toBe(((cents(rows[0]!.price) + 100) / 100).toFixed(2));
  });

  it('one question for a grid price 10 times the last, naming it; a small run asks nothing', async () => {
    const listings = await readAll<Titled>(harness, token, '/listings.json', 'listings');
    const [far, near] = listings
      .filter((l) => l.status === 'active' && cents(l.price) * 10 <= 100_000_000)
      .slice(40, 42);
    const user = await openEditor([far!.id, near!.id]);
    const tenfold = ((cents(far!.price) * 10) / 100).toFixed(2);
    await user.clear(screen.getByRole('textbox', { name: 'Price, row 1' }));
    await user.type(screen.getByRole('textbox', { name: 'Price, row 1' }), tenfold);
    await user.click(screen.getByRole('button', { name: 'Preview changes' }));
    const preview = await screen.findByRole('region', { name: 'Preview' }, { timeout: 15_000 });
    const apply = within(preview).getByRole('button', { name: 'Apply 1 change' });
    await waitFor(() => expect(apply).toBeEnabled(), { timeout: 15_000 });
    await user.click(apply);
    const ask = screen.getByRole('dialog', { name: 'Apply 1 change?' });
    expect(
      within(within(ask).getByRole('list', { name: 'Prices far from the price now' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([`${far!.title}: ${usd(cents(tenfold))} is 10 times ${usd(cents(far!.price))}`]);
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(await stored(far!.id)).toBe(far!.price);
    // Back to a price near the last: a run this small is applied without a question.
    await user.click(within(preview).getByRole('button', { name: 'Back to editing' }));
    const nearer = ((cents(far!.price) + 100) / 100).toFixed(2);
    await user.clear(screen.getByRole('textbox', { name: 'Price, row 1' }));
    await user.type(screen.getByRole('textbox', { name: 'Price, row 1' }), nearer);
    await user.click(screen.getByRole('button', { name: 'Preview changes' }));
    const again = await screen.findByRole('region', { name: 'Preview' });
    const applyAgain = within(again).getByRole('button', { name: 'Apply 1 change' });
    await waitFor(() => expect(applyAgain).toBeEnabled(), { timeout: 15_000 });
    await user.click(applyAgain);
    expect(screen.queryByRole('dialog')).toBeNull();
    await screen.findByRole('heading', { name: /^Finished:/ }, { timeout: 15_000 });
    expect(await stored(far!.id)).toBe(nearer);
  });
});
