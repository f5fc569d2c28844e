// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../support/sandbox-harness';
import { DOCUMENTED_ONLY } from '../support/test-shapes';
import { startDemo } from './support/demo';
import { cents, readAll, usd, type ListingTruth, type OrderTruth } from './support/read-all';
import { renderApp } from './support/render-app';

let harness: Harness;
let token: string;
let orders: OrderTruth[];

beforeAll(async () => {
  ({ harness, token } = await startDemo());
  orders = await readAll<OrderTruth>(harness, token, '/orders.json?status=any', 'orders');
});
afterEach(() => cleanup());
afterAll(() => harness?.close());

const DAY = 86_400_000;
const counted = () => orders.filter((o) => o.cancelled_at === null);
const netOf = (o: OrderTruth) =>
  o.svc_payout.status === 'paid' && o.svc_payout.amount !== null
    ? cents(o.svc_payout.amount)
    : Math.max(
        0,
        cents(o.subtotal_price) - cents(o.svc_payout.platform_fee) - cents(o.total_refunded),
      );

/** The figure (first dd) under a stat's name in a region. */
function stat(region: HTMLElement, name: string) {
  const term = within(region).getByText(name, { selector: 'dt' });
  return term.nextElementSibling?.textContent;
}

describe('the overview, against the demo seed read over HTTP', () => {
  it("shows money first: the last 30 days' net, pending payouts, and the open count of Orders → Open", async () => {
    const open = await readAll<{ id: string }>(
      harness,
      token,
      '/orders.json?status=open',
      'orders',
    );
    const since = Date.now() - 30 * DAY;
    const month = counted().filter((o) => Date.parse(o.svc_sold_at) >= since);
    const pending = counted().filter((o) => o.svc_payout.status === 'pending');
    const toShip = counted().filter((o) => o.svc_seller_shipment.status === 'pending_shipment');
    renderApp('/', { baseUrl: harness.url, token });
    const money = await screen.findByRole('region', { name: 'Money' }, { timeout: 15_000 });
    // The panel is drawn as its frame first ("…" for every figure), then filled.
    await waitFor(() => expect(money).not.toHaveAttribute('aria-busy'), { timeout: 15_000 });
    expect(stat(money, 'Last 30 days')).toBe(usd(month.reduce((c, o) => c + netOf(o), 0)));
    expect(stat(money, 'Pending, expected net')).toBe(
      usd(pending.reduce((c, o) => c + netOf(o), 0)),
    );
    const work = screen.getByRole('region', { name: 'Work' });
    await within(work).findByText(String(open.length), {}, { timeout: 15_000 });
    expect(stat(work, 'Open orders')).toBe(String(open.length));
    expect(stat(work, 'To ship to the hub')).toBe(String(toShip.length));
    // The connection is a strip; its developer details fold out, and the meter speaks of capacity.
    const strip = screen.getByRole('region', { name: 'Connection' });
    expect(within(strip).getAllByText('API capacity').length).toBeGreaterThan(0);
    expect(within(strip).getByText('Connection details')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Connection' })).toBeNull();
    if (DOCUMENTED_ONLY) {
      await within(work).findByText(
        'This API does not show when listing windows end.',
        {},
        { timeout: 15_000 },
      );
    } else {
      await within(work).findByText(/^\d+ ending within 3 days$/, {}, { timeout: 15_000 });
    }
  });

  it('lists the ship-to-hub queue by deadline and prints a packing sheet with barcodes', async () => {
    const toShip = counted()
      .filter((o) => o.svc_seller_shipment.status === 'pending_shipment')
      .sort((a, b) => a.svc_seller_shipment.ship_by!.localeCompare(b.svc_seller_shipment.ship_by!));
    expect(toShip.length).toBeGreaterThan(1);
    const { router } = renderApp('/ship-queue', { baseUrl: harness.url, token });
    const table = await screen.findByRole(
      'table',
      { name: 'Orders awaiting shipment to the hub' },
      { timeout: 15_000 },
    );
    const codes = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('link')[0]!.textContent);
    expect(codes).toEqual(toShip.map((o) => o.name));
    fireEvent.click(screen.getByRole('checkbox', { name: `Select ${toShip[0]!.name}` }));
    fireEvent.click(screen.getByRole('checkbox', { name: `Select ${toShip[1]!.name}` }));
    fireEvent.click(screen.getByRole('link', { name: 'Packing sheet for 2 selected' }));
    await screen.findByRole('heading', { name: 'Packing sheet' }, { timeout: 10_000 });
    expect(router.state.location.pathname).toBe('/ship-queue/packing-sheet');
    const sheet = await screen.findByRole(
      'table',
      { name: 'Cards in this box' },
      { timeout: 15_000 },
    );
    const rows = within(sheet).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual([
      toShip[0]!.name,
      toShip[1]!.name,
    ]);
    const full = await readAll<{ name: string; line_items: { sku: string }[] }>(
      harness,
      token,
      '/orders.json?status=open',
      'orders',
    );
    const cert = full.find((o) => o.name === toShip[0]!.name)!.line_items[0]!.sku;
    expect(within(rows[0]!).getByRole('img', { name: `Barcode of ${cert}` })).toBeInTheDocument();
    await within(rows[0]!).findByText(/^(PSA|BGS|SGC|CGC)$/, {}, { timeout: 15_000 });
  });

  it('shows payouts paid by month with fees, from the orders', async () => {
    const paid = counted().filter((o) => o.svc_payout.status === 'paid' && o.svc_payout.paid_at);
    expect(paid.length).toBeGreaterThan(0);
    const latest = paid
      .map((o) => o.svc_payout.paid_at!.slice(0, 7))
      .sort()
      .at(-1)!;
    const inMonth = paid.filter((o) => o.svc_payout.paid_at!.startsWith(latest));
    renderApp('/payouts', { baseUrl: harness.url, token });
    const table = await screen.findByRole(
      'table',
      { name: 'Payouts paid, by month' },
      { timeout: 15_000 },
    );
    const name = new Intl.DateTimeFormat('en-US', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(Date.parse(`${latest}-01T00:00:00Z`));
    const cells = within(within(table).getByRole('rowheader', { name }).closest('tr')!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(0, 5)).toEqual([
      String(inMonth.length),
      usd(inMonth.reduce((c, o) => c + cents(o.subtotal_price), 0)),
      usd(inMonth.reduce((c, o) => c + cents(o.svc_payout.platform_fee), 0)),
      usd(inMonth.reduce((c, o) => c + cents(o.total_refunded), 0)),
      usd(inMonth.reduce((c, o) => c + cents(o.svc_payout.amount!), 0)),
    ]);
  });

  it("shows a live listing's net if sold and its margin over the card's cost", async () => {
    const listings = await readAll<ListingTruth>(harness, token, '/listings.json', 'listings');
    const items = await readAll<{ id: string; cost: string }>(
      harness,
      token,
      '/inventory_items.json',
      'inventory_items',
    );
    const costs = new Map(items.map((i) => [i.id, i.cost]));
    // The fee rate: the most common platform_fee / subtotal among paid-out orders.
    const counts = new Map<number, number>();
    for (const o of counted().filter((x) => x.svc_payout.status === 'paid')) {
      const bp = Math.round((cents(o.svc_payout.platform_fee) * 10_000) / cents(o.subtotal_price));
      counts.set(bp, (counts.get(bp) ?? 0) + 1);
    }
    const bp = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
    const listing = listings.find((l) => l.status === 'active' && costs.has(l.card.id))!;
    const single = await harness.api(`/listings/${listing.id}.json`, { token });
    const promoted = ((await single.json()) as { listing: { promoted?: boolean } }).listing
      .promoted;
    const rate = bp + (promoted === true ? 300 : 0);
    const price = cents(listing.price);
    const net = price - Math.round((price * rate) / 10_000);
    const margin = net - cents(costs.get(listing.card.id)!);
    renderApp(`/listings/${listing.id}`, { baseUrl: harness.url, token });
    const terms = await screen.findByRole('region', { name: 'Sale terms' }, { timeout: 15_000 });
    const marginTerm = await within(terms).findByText('Margin over cost', {}, { timeout: 15_000 });
    expect(marginTerm.nextElementSibling?.textContent).toMatch(
      new RegExp(`^${usd(margin).replace(/[$.]/g, '\\$&')} `),
    );
    expect(within(terms).getByText('Net if sold').nextElementSibling?.textContent).toMatch(
      new RegExp(`^${usd(net).replace(/[$.]/g, '\\$&')} \\(fee ${rate / 100}%`),
    );
  });

  it("shows an order's expected payout while pending and its realised margin once paid", async () => {
    const items = await readAll<{ id: string; cost: string }>(
      harness,
      token,
      '/inventory_items.json',
      'inventory_items',
    );
    const costs = new Map(items.map((i) => [i.id, i.cost]));
    const paid = counted().find(
      (o) => o.svc_payout.status === 'paid' && costs.has(o.line_items[0]!.inventory_item_id),
    )!;
    renderApp(`/orders/${paid.id}`, { baseUrl: harness.url, token });
    const money = await screen.findByRole('region', { name: 'Money' }, { timeout: 15_000 });
    const realised = await within(money).findByText('Realised margin', {}, { timeout: 15_000 });
    const margin =
      cents(paid.svc_payout.amount!) - cents(costs.get(paid.line_items[0]!.inventory_item_id)!);
    expect(realised.nextElementSibling?.textContent).toBe(
      `${usd(margin)} (cost ${usd(cents(costs.get(paid.line_items[0]!.inventory_item_id)!))})`,
    );
    cleanup();
    const pending = counted().find((o) => o.svc_payout.status === 'pending')!;
    renderApp(`/orders/${pending.id}`, { baseUrl: harness.url, token });
    const money2 = await screen.findByRole('region', { name: 'Money' }, { timeout: 15_000 });
    expect(within(money2).getByText('Expected payout').nextElementSibling?.textContent).toBe(
      `${usd(netOf(pending))} (sale − fee − refunds)`,
    );
  });
});
