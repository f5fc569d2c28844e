import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiScope } from '../platform/scopes';
import type { PlatformState, SandboxContext } from '../context';
import { notFound } from '../platform/api-error';
import { ORDER_STATUSES, type OrderStatusFilter } from '../store/orders-store';
import type { Scope } from '../store/rows';
import { readViews } from '../serializers/read-views';
import {
  callerScope,
  type CollectionRoute,
  render,
  resourceId,
  sendCollection,
  singleFields,
  urlsFor,
} from './respond';

/** Every read endpoint of the public API. */
export function registerReadRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { store } = ctx;
  // The read serializers for `SANDBOX_SHAPES`, looked up per request: tests switch shapes live.
  const views = () => readViews(ctx.shapes);

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

  /** GET /{resource}/{id}: one record under the singular's name, else a 404. */
  const single = <Row extends { id: string }>(
    resource: string,
    scope: ApiScope,
    get: (id: string, caller: Scope) => Row | undefined,
    view: (row: Row, request: FastifyRequest) => Record<string, unknown>,
  ) =>
    app.get<{ Params: { id: string } }>(
      `/:version/${resource}/:id`,
      { config: { scope } },
      async (request) => {
        const fields = singleFields(request);
        const row = get(resourceId(request.params.id), callerScope(request));
        if (!row) throw notFound();
        return { [resource.slice(0, -1)]: render(ctx, row.id, () => view(row, request), fields) };
      },
    );

  for (const resource of ['listings', 'products'] as const) {
    const product = resource === 'products';
    collection(resource, 'read_listings', (request) => {
      const urls = urlsFor(request);
      return {
        page: (page) => store.listings.page(page),
        view: (row) => (product ? views().product(row, urls) : views().listingList(row, urls)),
      };
    });
    single(resource, 'read_listings', store.listings.get, (row, request) =>
      (product ? views().product : views().listingSingle)(row, urlsFor(request)),
    );
  }

  collection('orders', 'read_orders', () => ({
    filters: [{ name: 'status', defaultValue: 'any', allowed: ORDER_STATUSES }],
    page: (page, filters) =>
      store.orders.page(page, (filters.status ?? 'any') as OrderStatusFilter),
    view: views().orderList,
  }));
  single('orders', 'read_orders', store.orders.get, (row) => views().orderSingle(row));

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
