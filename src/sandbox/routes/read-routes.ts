import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiScope } from '../platform/scopes';
import type { SandboxContext } from '../context';
import { notFound } from '../platform/api-error';
import type { PlatformState } from './request-pipeline';
import { ORDER_STATUSES, type OrderStatusFilter } from '../store/orders-store';
import {
  callerScope,
  type CollectionRoute,
  render,
  resourceId,
  sendCollection,
  singleFields,
  urlsFor,
  viewsOf,
} from './respond';

const ORDER_STATUS = {
  name: 'status',
  defaultValue: 'any',
  allowed: ORDER_STATUSES,
} as const;

/** Every read endpoint of the public API. */
export function registerReadRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { store } = ctx;
  const views = () => viewsOf(ctx);

  /** GET /{resource}.json: one page of the collection that `build` describes for the request. */
  const collection = <Row>(
    resource: string,
    scope: ApiScope,
    build: (request: FastifyRequest) => Omit<CollectionRoute<Row>, 'resource'>,
  ) =>
    app.get(`/:version/${resource}.json`, { config: { scope } }, async (request, reply) =>
      sendCollection(ctx, request, reply, { resource, ...build(request) }),
    );

  app.get('/:version/ping', { config: { scope: null } }, async (request) => ({
    ping: views().ping(request.platform as PlatformState, request.id, ctx.clock.now()),
  }));

  for (const resource of ['listings', 'products'] as const) {
    const product = resource === 'products';
    collection(resource, 'read_listings', (request) => {
      const urls = urlsFor(request);
      return {
        page: (page) => store.listings.page(page),
        view: (row) => (product ? views().product(row, urls) : views().listingList(row, urls)),
      };
    });
    app.get<{ Params: { id: string } }>(
      `/:version/${resource}/:id`,
      { config: { scope: 'read_listings' } },
      async (request) => {
        const fields = singleFields(request);
        const row = store.listings.get(resourceId(request.params.id), callerScope(request));
        if (!row) throw notFound();
        const urls = urlsFor(request);
        const view = () =>
          product ? views().product(row, urls) : views().listingSingle(row, urls);
        return { [product ? 'product' : 'listing']: render(ctx, row.id, view, fields) };
      },
    );
  }

  collection('orders', 'read_orders', () => ({
    filters: [ORDER_STATUS],
    page: (page, filters) =>
      store.orders.page(page, (filters.status ?? 'any') as OrderStatusFilter),
    view: views().orderList,
  }));

  app.get<{ Params: { id: string } }>(
    '/:version/orders/:id',
    { config: { scope: 'read_orders' } },
    async (request) => {
      const fields = singleFields(request);
      const row = store.orders.get(resourceId(request.params.id), callerScope(request));
      if (!row) throw notFound();
      return { order: render(ctx, row.id, () => views().orderSingle(row), fields) };
    },
  );

  collection('inventory_items', 'read_inventory', () => ({
    page: (page) => store.catalog.itemsPage(page),
    view: views().inventoryItem,
  }));
  collection('inventory_levels', 'read_inventory', () => ({
    page: (page) => store.levels.page(page),
    seq: (row) => row.item_seq,
    id: (row) => row.inventory_item_id,
    view: views().inventoryLevel,
  }));

  app.get('/:version/locations.json', { config: { scope: 'read_inventory' } }, async (request) => ({
    locations: views().locations(callerScope(request).sellerId),
  }));
}
