import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { isoTime } from '../domain/time';
import { notFound } from '../platform/api-error';
import type { PlatformState } from '../platform/request-pipeline';
import { CURRENT_VERSION } from '../platform/versions';
import type { OrderStatusFilter } from '../store/orders-store';
import {
  inventoryItemView,
  inventoryLevelView,
  locationsFor,
} from '../serializers/inventory-views';
import { listingListView, listingSingleView, productView } from '../serializers/listing-views';
import { orderView } from '../serializers/order-view';
import { callerScope, render, resourceId, sendCollection, singleFields, urlsFor } from './respond';

const ORDER_STATUS = {
  name: 'status',
  defaultValue: 'any',
  allowed: ['open', 'closed', 'cancelled', 'any'],
} as const;

/** Every read endpoint of the public API. */
export function registerReadRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { store } = ctx;

  app.get('/:version/ping', { config: { scope: null } }, async (request) => {
    const platform = request.platform as PlatformState;
    return {
      ping: {
        ok: true,
        api_version: CURRENT_VERSION,
        mode: platform.mode,
        seller_id: platform.seller!.id,
        key_id: platform.key!.id,
        scopes: platform.scopes,
        request_id: request.id,
        server_time: isoTime(ctx.clock.now()),
      },
    };
  });

  for (const resource of ['listings', 'products'] as const) {
    const product = resource === 'products';
    app.get(
      `/:version/${resource}.json`,
      { config: { scope: 'read_listings' } },
      async (request, reply) => {
        const urls = urlsFor(request);
        return sendCollection(ctx, request, reply, {
          resource,
          envelope: resource,
          page: (page) => store.listings.page(page),
          seq: (row) => row.seq,
          id: (row) => row.id,
          view: (row) => (product ? productView(row, urls) : listingListView(row)),
        });
      },
    );
    app.get<{ Params: { id: string } }>(
      `/:version/${resource}/:id`,
      { config: { scope: 'read_listings' } },
      async (request) => {
        const fields = singleFields(request);
        const row = store.listings.get(resourceId(request.params.id), callerScope(request));
        if (!row) throw notFound();
        const urls = urlsFor(request);
        const view = () => (product ? productView(row, urls) : listingSingleView(row, urls));
        return { [product ? 'product' : 'listing']: render(ctx, row.id, view, fields) };
      },
    );
  }

  app.get('/:version/orders.json', { config: { scope: 'read_orders' } }, async (request, reply) =>
    sendCollection(ctx, request, reply, {
      resource: 'orders',
      envelope: 'orders',
      filters: [ORDER_STATUS],
      page: (page, filters) =>
        store.orders.page(page, (filters.status ?? 'any') as OrderStatusFilter),
      seq: (row) => row.seq,
      id: (row) => row.id,
      view: (row) => orderView(row, false),
    }),
  );

  app.get<{ Params: { id: string } }>(
    '/:version/orders/:id',
    { config: { scope: 'read_orders' } },
    async (request) => {
      const fields = singleFields(request);
      const row = store.orders.get(resourceId(request.params.id), callerScope(request));
      if (!row) throw notFound();
      return { order: render(ctx, row.id, () => orderView(row, true), fields) };
    },
  );

  app.get(
    '/:version/inventory_items.json',
    { config: { scope: 'read_inventory' } },
    async (request, reply) =>
      sendCollection(ctx, request, reply, {
        resource: 'inventory_items',
        envelope: 'inventory_items',
        page: (page) => store.catalog.itemsPage(page),
        seq: (row) => row.seq,
        id: (row) => row.id,
        view: inventoryItemView,
      }),
  );

  app.get(
    '/:version/inventory_levels.json',
    { config: { scope: 'read_inventory' } },
    async (request, reply) =>
      sendCollection(ctx, request, reply, {
        resource: 'inventory_levels',
        envelope: 'inventory_levels',
        page: (page) => store.levels.page(page),
        seq: (row) => row.item_seq,
        id: (row) => row.inventory_item_id,
        view: inventoryLevelView,
      }),
  );

  app.get('/:version/locations.json', { config: { scope: 'read_inventory' } }, async (request) => ({
    locations: locationsFor(callerScope(request).sellerId),
  }));
}
