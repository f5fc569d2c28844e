// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../support/sandbox-harness';
import { startDemo } from './support/demo';
import { cents, readAll, usd, type ListingTruth, type OrderTruth } from './support/read-all';
import { renderApp } from './support/render-app';
import { AGE_BUCKETS } from '../../src/api/sales/listing-age';

let harness: Harness;
let token: string;
let orders: OrderTruth[];
let listings: ListingTruth[];

beforeAll(async () => {
  ({ harness, token } = await startDemo());
  orders = await readAll<OrderTruth>(harness, token, '/orders.json?status=any', 'orders');
  listings = await readAll<ListingTruth>(harness, token, '/listings.json', 'listings');
});
afterEach(() => cleanup());
afterAll(() => harness?.close());

const DAY = 86_400_000;
const counted = () => orders.filter((o) => o.cancelled_at === null);

/** The cells of the row whose header cell reads `name`, in a table found by its caption. */
async function rowCells(caption: string, name: string) {
  const table = await screen.findByRole('table', { name: caption }, { timeout: 15_000 });
  const header = within(table).getByRole('rowheader', { name });
  return within(header.closest('tr')!)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
}

describe('insights, against the demo seed read over HTTP', () => {
  it("shows this month's sales, fees and net payouts in the chart's table", async () => {
    const now = new Date();
    const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    const inMonth = counted().filter((o) => o.svc_sold_at.startsWith(month));
    expect(inMonth.length).toBeGreaterThan(0);
    let sales = 0;
    let fees = 0;
    let net = 0;
    for (const o of inMonth) {
      sales += cents(o.subtotal_price);
      // The fee the seller pays: all of it once paid out above $0.00, else what the sale leaves
      // after refunds (none on a sale refunded in full).
      const paidOut = o.svc_payout.status === 'paid' && cents(o.svc_payout.amount ?? '0') > 0;
      fees += paidOut
        ? cents(o.svc_payout.platform_fee)
        : Math.min(
            cents(o.svc_payout.platform_fee),
            Math.max(0, cents(o.subtotal_price) - cents(o.total_refunded)),
          );
      net +=
        o.svc_payout.status === 'paid' && o.svc_payout.amount !== null
          ? cents(o.svc_payout.amount)
          : Math.max(
              0,
              cents(o.subtotal_price) - cents(o.svc_payout.platform_fee) - cents(o.total_refunded),
            );
    }
    renderApp('/insights?by=month&metric=net', { baseUrl: harness.url, token });
    const label = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(now);
    expect(await rowCells('Sales by month', label)).toEqual([
      usd(sales),
      String(inMonth.length),
      usd(fees),
      usd(net),
    ]);
    // The chart's bar for the month carries the same net figure, shown on focus.
    const bar = screen.getByRole('img', { name: `${label}: ${usd(net)}` });
    fireEvent.focus(bar);
    expect(screen.getByText(`${label}: Net payouts ${usd(net)}`)).toBeInTheDocument();
  });

  it('counts live listings into age buckets, each linking to those listings', async () => {
    const now = Date.now();
    const buckets = { '0–7 days': 0, '8–30 days': 0, '31–90 days': 0, 'Over 90 days': 0 };
    for (const l of listings) {
      if (l.status !== 'active' || !l.listed_at) continue;
      const days = Math.floor((now - Date.parse(l.listed_at)) / DAY);
      if (days <= 7) buckets['0–7 days']++;
      else if (days <= 30) buckets['8–30 days']++;
      else if (days <= 90) buckets['31–90 days']++;
      else buckets['Over 90 days']++;
    }
    renderApp('/insights', { baseUrl: harness.url, token });
    for (const [name, count] of Object.entries(buckets)) {
      const cells = await rowCells('Live listings by age', name);
      expect(cells[0]).toBe(String(count));
    }
    expect(Object.values(buckets).filter((n) => n > 0).length).toBeGreaterThan(1);
    // Each bucket with listings links to them (the demo's ages move with the clock).
    for (const bucket of AGE_BUCKETS) {
      const count = buckets[bucket.label as keyof typeof buckets];
      if (count === 0) continue;
      const link = screen.getByRole('link', {
        name: `See ${count} listed ${bucket.label.toLowerCase()}`,
      });
      expect(link.getAttribute('href')).toBe(
        `/listings?${new URLSearchParams({ status: 'active', age: bucket.id })}`,
      );
    }
    // No link to an empty set.
    expect(screen.queryByRole('link', { name: /^See 0 / })).toBeNull();
  });

  it('shows sell-through and median days to sell by grader', async () => {
    const soldAt = new Map<string, string>();
    for (const o of counted()) {
      const id = o.line_items[0]!.product_id;
      const seen = soldAt.get(id);
      if (!seen || o.svc_sold_at < seen) soldAt.set(id, o.svc_sold_at);
    }
    const byGrader = new Map<string, { listed: number; sold: number; days: number[] }>();
    for (const l of listings) {
      if (!l.listed_at) continue;
      const g = byGrader.get(l.card.grader) ?? { listed: 0, sold: 0, days: [] };
      g.listed++;
      const sold = soldAt.get(l.id);
      if (sold) {
        g.sold++;
        g.days.push((Date.parse(sold) - Date.parse(l.listed_at)) / DAY);
      }
      byGrader.set(l.card.grader, g);
    }
    renderApp('/insights?breakdown=grader', { baseUrl: harness.url, token });
    expect(byGrader.size).toBeGreaterThan(1);
    for (const [grader, g] of byGrader) {
      const sorted = [...g.days].sort((a, b) => a - b);
      const mid = Math.floor(sorted.length / 2);
      const median =
        sorted.length === 0
          ? '—'
          : (sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2).toFixed(1);
      expect(await rowCells('Sell-through by grader', grader)).toEqual([
        String(g.listed),
        String(g.sold),
        `${((g.sold / g.listed) * 100).toFixed(1)}%`,
        median,
      ]);
    }
  });
});
