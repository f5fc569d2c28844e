// idb recognises requests by the global IndexedDB classes: fake-indexeddb's, installed here.
import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createClient, type ListingRead } from '../../src/client';
import { listingKeys } from '../../src/api/listings/listing-keys';
import { applyProductEvent } from '../../src/api/listings/live-patch';
import { KeptDb } from '../../src/api/kept/kept-db';
import { keepCopies, keptOptions } from '../../src/api/kept/kept-persister';
import { keptQueryFn } from '../../src/api/kept/kept-query';
import { keptListings } from '../../src/api/listings/catalogue-query';
import type { Kept } from '../../src/api/kept/kept-sync';
import { orderKeys } from '../../src/api/orders/order-keys';
import { applyOrderEvent } from '../../src/api/orders/live-patch';
import { keptOrders, type KeptOrder } from '../../src/api/orders/order-queries';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { useDemoHub } from '../support/demo-hub';

/**
 * Newest wins: a `products/update` older than the row shown, delivered after a newer one (or
 * before it), never leaves the older row on screen, nor in the kept copy a reload shows.
 */
const demo = useDemoHub({ demoListings: 300, rateLimit: false });
/** One visit of the catalogue page: a new client and QueryClient over the same kept database. */
function visit(db: KeptDb) {
  const client = createClient({ baseUrl: `${demo.server.url}/api` });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const copies = keepCopies(queryClient, db);
  const queryKey = listingKeys.catalogue();
  const queryFn = keptQueryFn(queryClient, queryKey, keptListings(client), { db });
  return {
    queryClient,
    load: () =>
      queryClient.fetchQuery({ queryKey, queryFn, staleTime: 0, ...keptOptions('listings') }),
    row: (id: string) =>
      queryClient.getQueryData<Kept<ListingRead>>(queryKey)?.rows.find((r) => r.id === id),
    save: () => copies.flush(),
  };
}

/** The listing's product form now (a webhook's payload is that view). */
async function productNow(id: string): Promise<Record<string, unknown>> {
  const answer = await demo.harness.api(`/products/${id}.json`, { token: DEMO_LIVE_TOKEN });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { product: Record<string, unknown> }).product;
}

/** An active listing, its product form before a sale and after it (the sale made first). */
async function soldWithPayloads(skip: ReadonlySet<string>) {
  const list = await demo.harness.api('/listings.json?limit=250', { token: DEMO_LIVE_TOKEN });
  const { listings } = (await list.json()) as { listings: { id: string; status: string }[] };
  const id = listings.find((l) => l.status === 'active' && !skip.has(l.id))!.id;
  const before = await productNow(id);
  // The sale's time is the marketplace clock's: a minute on, so it is surely later.
  await demo.harness.control('POST', '/clock', { advance_seconds: 60 });
  const sale = await demo.harness.control('POST', `/listings/${id}/sell`, {});
  expect(sale.status, JSON.stringify(sale.body)).toBe(200);
  const after = await productNow(id);
  expect(Date.parse(String(after.updated_at))).toBeGreaterThan(
    Date.parse(String(before.updated_at)),
  );
  return { id, before, after };
}

describe('newest wins', () => {
  const used = new Set<string>();
  for (const order of ['newer then older', 'older then newer'] as const) {
    it(`a sold listing stays sold when its deliveries come ${order}, and after a reload`, async () => {
      const { id, before, after } = await soldWithPayloads(used);
      used.add(id);
      // The hub learns the sale (its reconciliation here; a delivery where one is registered).
      await demo.server.replica.round();
      const db = new KeptDb(new IDBFactory(), IDBKeyRange);
      const first = visit(db);
      await first.load();
      expect(first.row(id)?.status).toBe('archived');
      const deliveries = order === 'newer then older' ? [after, before] : [before, after];
      for (const payload of deliveries) {
        applyProductEvent(first.queryClient, 'products/update', payload);
      }
      expect(first.row(id)?.status).toBe('archived');
      expect(first.row(id)?.updated_at).toBe(after.updated_at);
      await first.save();

      // A reload, after the hub's reconciliation: the kept copy, then the hub's rows changed since.
      await demo.server.replica.round();
      const again = visit(db);
      const kept = await again.load();
      expect(kept.origin).toBe('kept');
      expect(again.row(id)?.status).toBe('archived');
      expect(again.row(id)?.updated_at).toBe(after.updated_at);
    });
  }
});

/** One visit of the orders pages: the kept orders over the same database. */
function ordersVisit(db: KeptDb) {
  const client = createClient({ baseUrl: `${demo.server.url}/api` });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const copies = keepCopies(queryClient, db);
  const queryKey = orderKeys.kept();
  const queryFn = keptQueryFn(queryClient, queryKey, keptOrders(client), { db });
  return {
    queryClient,
    load: () =>
      queryClient.fetchQuery({ queryKey, queryFn, staleTime: 0, ...keptOptions('orders') }),
    row: (id: string) =>
      queryClient.getQueryData<Kept<KeptOrder>>(queryKey)?.rows.find((r) => r.id === id),
    detail: (id: string) => queryClient.getQueryData<KeptOrder>(orderKeys.detail(id)),
    save: () => copies.flush(),
  };
}

/** The order's single view now (an `orders/updated` payload is that view). */
async function orderNow(id: string): Promise<Record<string, unknown>> {
  const answer = await demo.harness.api(`/orders/${id}.json`, { token: DEMO_LIVE_TOKEN });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { order: Record<string, unknown> }).order;
}

describe('newest wins for orders', () => {
  const used = new Set<string>();
  for (const order of ['newer then older', 'older then newer'] as const) {
    it(`a shipped order stays shipped when its deliveries come ${order}, and after a reload`, async () => {
      const { id: listingId } = await soldWithPayloads(used);
      used.add(listingId);
      const orders = await demo.harness.api('/orders.json?status=open&limit=250', {
        token: DEMO_LIVE_TOKEN,
      });
      const { orders: open } = (await orders.json()) as {
        orders: { id: string; line_items: { product_id: string }[] }[];
      };
      const id = open.find((o) => o.line_items[0]?.product_id === listingId)!.id;
      const before = await orderNow(id);
      await demo.harness.control('POST', '/clock', { advance_seconds: 60 });
      expect((await demo.harness.control('POST', `/orders/${id}/advance`, {})).status).toBe(200);
      const after = await orderNow(id);
      const shipment = (o: Record<string, unknown>) =>
        (o.svc_seller_shipment as { status?: string }).status;
      expect(shipment(after)).not.toBe(shipment(before));

      const db = new KeptDb(new IDBFactory(), IDBKeyRange);
      const first = ordersVisit(db);
      await first.load();
      const deliveries = order === 'newer then older' ? [after, before] : [before, after];
      for (const payload of deliveries) applyOrderEvent(first.queryClient, payload);
      expect(first.row(id)?.svc_seller_shipment?.status).toBe(shipment(after));
      expect(first.detail(id)?.svc_seller_shipment?.status).toBe(shipment(after));
      await first.save();

      // A reload, after the hub's reconciliation: the kept copy, then the hub's rows changed since.
      await demo.server.replica.round();
      const again = ordersVisit(db);
      const kept = await again.load();
      expect(kept.origin).toBe('kept');
      expect(again.row(id)?.svc_seller_shipment?.status).toBe(shipment(after));
      expect(again.row(id)?.updated_at).toBe(after.updated_at);
    });
  }
});
