// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../support/sandbox-harness';
import { startDemo } from './support/demo';
import { readAll, type OrderTruth } from './support/read-all';
import { renderApp } from './support/render-app';
import type { Order } from '../../src/client';
import { noticeFor } from '../../src/lib/notifications';

let harness: Harness;
let token: string;
let listingId: string;
let orderId: string;
let orders: OrderTruth[];

beforeAll(async () => {
  ({ harness, token } = await startDemo());
  const listings = (await (await harness.api('/listings.json?limit=1', { token })).json()) as {
    listings: { id: string }[];
  };
  listingId = listings.listings[0]!.id;
  orders = await readAll<OrderTruth>(harness, token, '/orders.json?status=any', 'orders');
  orderId = orders[0]!.id;
});
afterEach(() => cleanup());
afterAll(() => harness?.close());

const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Words for us, not for sellers: found anywhere in the page's text (hidden parts included). */
function ourWords(text: string): string[] {
  const found: string[] = [];
  if (text.includes('(s)'))
    found.push(`"(s)" in …${text.slice(text.indexOf('(s)') - 40, text.indexOf('(s)') + 3)}`);
  const verb = /\bPUT\b/.exec(text);
  if (verb) found.push(`"PUT" in …${text.slice(verb.index - 40, verb.index + 3)}`);
  const bucket = /bucket/i.exec(text);
  if (bucket) found.push(`"bucket" in …${text.slice(bucket.index - 40, bucket.index + 6)}`);
  const iso = ISO_TIME.exec(text);
  if (iso) found.push(`an ISO time in …${text.slice(iso.index - 40, iso.index + 16)}`);
  return found;
}

const PAGES = (): [string, string][] => [
  ['/', 'Overview'],
  ['/insights', 'Insights'],
  ['/listings', 'Listings'],
  [`/listings/${listingId}`, ''],
  ['/listings/new', 'New listing'],
  ['/listings/bulk-edit', 'Bulk edit'],
  ['/orders', 'Orders'],
  [`/orders/${orderId}`, ''],
  ['/payouts', 'Payouts'],
  ['/inventory', 'Inventory'],
  ['/locations', 'Locations'],
  ['/events', 'Events'],
  ['/ship-queue', ''],
];

describe('words for sellers, on every main page of the demo', () => {
  it('no "(s)", no HTTP verb, no "bucket", no ISO timestamp in any text a seller sees', async () => {
    for (const [path] of PAGES()) {
      renderApp(path, { baseUrl: harness.url, token });
      await screen.findByRole('heading', { level: 1 }, { timeout: 10_000 });
      // Loaded: no page-level "Loading…" left.
      await waitFor(() => expect(screen.queryByText(/^Loading/)).toBeNull(), { timeout: 15_000 });
      const text = document.body.textContent ?? '';
      expect(text.length).toBeGreaterThan(100);
      expect({ path, found: ourWords(text) }).toEqual({ path, found: [] });
      cleanup();
    }
  }, 120_000);
});

describe('the sale notification, the text on a lock screen', () => {
  it('gives the ship-by time and the money in words, never an ISO timestamp', () => {
    const order = orders.find((o) => o.svc_seller_shipment.ship_by !== null)!;
    const sale = noticeFor('orders/create', order as unknown as Order, Date.now())!;
    expect(sale.body).not.toMatch(ISO_TIME);
    expect(sale.body).toMatch(/Ship by [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    const soon = noticeFor(
      'orders/updated',
      order as unknown as Order,
      Date.parse(order.svc_seller_shipment.ship_by!) - 60_000,
    );
    if (order.svc_seller_shipment.status === 'pending_shipment' && order.cancelled_at === null) {
      expect(soon?.body).not.toMatch(ISO_TIME);
    }
  });
});
