import type { Prefetch, RouteDeps } from '../lib/route-prefetch';
import type { AppRoute, LoaderArgs } from '../lib/router/router';
import { Layout } from './layout';
import { paths } from '../lib/paths';
import { prefetchSales } from '../lib/sales/sales-queries';

/**
 * A route loader that starts the page's queries while its code chunk loads (the router runs a
 * route's `loader` and `page` side by side) and resolves without waiting for the data: the page
 * renders at once and shows its own loading state. The prefetch lives with the feature's queries,
 * imported on demand so the first load does not carry every page's query code.
 */
function startQueries(
  deps: RouteDeps,
  load: () => Promise<Prefetch> | Prefetch,
): (args: LoaderArgs) => Promise<void> {
  return async (args) => (await load())(deps, args);
}

/** The catalogue pages' loader (listings, bulk edit), from the module the pages import anyway. */
const startCatalogue = (deps: RouteDeps) =>
  startQueries(
    deps,
    async () => (await import('../features/listings/catalogue-query')).prefetchCatalogue,
  );

/** The money reads' loader (their queries are in the shell already: nothing to import). */
const startSales = (deps: RouteDeps, reads: Parameters<typeof prefetchSales>[0]) =>
  startQueries(deps, () => prefetchSales(reads));

/**
 * The route table. Every page is its own lazily loaded chunk, so the first page loads only the
 * shell and itself; pages with a loader start their reads alongside that chunk. Pages whose
 * filters live in the address (listings, bulk edit, orders) run their loader `onEntry`: a filter
 * or search changed on the page is the page's own query to follow, so it does not run the loader
 * again (nor mark the page loading).
 */
export const createRoutes = (deps: RouteDeps): AppRoute[] => [
  {
    path: '/',
    element: <Layout />,
    children: [
      {
        index: true,
        loader: startSales(deps, { orders: true, openOrders: true, listings: true, scoped: true }),
        page: () => import('../features/overview/overview-page'),
      },
      {
        path: paths.listings.pattern,
        loader: startCatalogue(deps),
        onEntry: true,
        page: () => import('../features/listings/listings-page'),
      },
      {
        path: paths.newListing.pattern,
        page: () => import('../features/listings/new-listing-page'),
      },
      {
        path: paths.bulkEdit.pattern,
        loader: startCatalogue(deps),
        onEntry: true,
        page: () => import('../features/listings/bulk-edit/bulk-edit-page'),
      },
      {
        path: paths.listing.pattern,
        loader: startQueries(
          deps,
          async () => (await import('../features/listings/listing-queries')).prefetchListing,
        ),
        page: () => import('../features/listings/listing-detail-page'),
      },
      {
        path: paths.editListing.pattern,
        loader: startQueries(
          deps,
          async () => (await import('../features/listings/listing-queries')).prefetchListing,
        ),
        page: () => import('../features/listings/listing-edit-page'),
      },
      {
        path: paths.orders.pattern,
        loader: startQueries(
          deps,
          async () => (await import('../features/orders/order-queries')).prefetchOrders,
        ),
        onEntry: true,
        page: () => import('../features/orders/orders-page'),
      },
      {
        path: paths.order.pattern,
        loader: startQueries(
          deps,
          async () => (await import('../features/orders/order-queries')).prefetchOrder,
        ),
        page: () => import('../features/orders/order-detail-page'),
      },
      {
        path: paths.inventory.pattern,
        loader: startQueries(
          deps,
          async () => (await import('../features/inventory/inventory-queries')).prefetch,
        ),
        page: () => import('../features/inventory/inventory-page'),
      },
      {
        path: paths.locations.pattern,
        loader: startQueries(
          deps,
          async () => (await import('../features/locations/locations-queries')).prefetch,
        ),
        page: () => import('../features/locations/locations-page'),
      },
      { path: paths.events.pattern, page: () => import('../features/events/events-page') },
      { path: paths.activity.pattern, page: () => import('../features/activity/activity-page') },
      {
        path: paths.insights.pattern,
        loader: startSales(deps, { orders: true, listings: true }),
        page: () => import('../features/insights/insights-page'),
      },
      {
        path: paths.payouts.pattern,
        loader: startSales(deps, { orders: true }),
        page: () => import('../features/payouts/payouts-page'),
      },
      { path: paths.shipQueue.pattern, page: () => import('../features/orders/ship-queue-page') },
      {
        path: paths.packingSheet.pattern,
        page: () => import('../features/orders/packing-sheet-page'),
      },
      { path: '*', element: <NotFound /> },
    ],
  },
];

/**
 * What shows while the first page's code loads: the very frame index.html paints before any
 * script runs (kept in step with it), so React's first render moves nothing on the screen.
 */
export function BootFrame() {
  return (
    <div className="app">
      <header>
        <div className="topbar">
          <a className="brand" href="/">
            Slabdesk
          </a>
        </div>
      </header>
      <main id="main">
        <p className="muted">Loading your dashboard…</p>
      </main>
    </div>
  );
}

function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>There is no page at this address.</p>
    </section>
  );
}
