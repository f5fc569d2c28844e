import type { ComponentType } from 'react';
import type { LoaderFunctionArgs, RouteObject, ShouldRevalidateFunction } from 'react-router';
import { Link } from 'react-router';
import type { Prefetch, RouteDeps } from '../api/route-prefetch';
import { Layout } from './layout';
import { RouteError } from './route-error';
import { paths } from '../shared/paths';
import { prefetchSales } from '../api/sales/sales-queries';
import { prefetchCatalogue } from '../api/listings/catalogue-query';
import { prefetchOrder, prefetchOrders } from '../api/orders/order-queries';
import { bootMode } from '../lib/boot-mode';

/**
 * A route loader that starts the page's queries while its code chunk loads (the router runs a
 * static `loader` beside `lazy`) and resolves without waiting for the data: the page renders at
 * once and shows its own loading state. The prefetch lives with the feature's queries, imported
 * on demand so the first load does not carry every page's query code.
 */
function startQueries(
  deps: RouteDeps,
  load: () => Promise<Prefetch> | Prefetch,
): (args: LoaderFunctionArgs) => Promise<null> {
  return async ({ params, request }) => {
    (await load())(deps, { params, url: new URL(request.url) });
    return null;
  };
}

/** A route's `lazy`: the page's chunk, of which the route takes only its `Component`. */
const page =
  (load: () => Promise<{ Component: ComponentType }>) =>
  async (): Promise<{ Component: ComponentType }> => ({
    Component: (await load()).Component,
  });

/**
 * For pages whose filters live in the address: the loader runs when the page is entered, not
 * for a change of the query (the page's own queries follow it, and the page is not marked busy).
 */
export const onEntry: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}) => currentUrl.pathname !== nextUrl.pathname && defaultShouldRevalidate;

/** The catalogue pages' loader (listings, bulk edit): the kept listings are in the shell already. */
const startCatalogue = (deps: RouteDeps) => startQueries(deps, () => prefetchCatalogue);

/** The money reads' loader (their queries are in the shell already: nothing to import). */
const startSales = (deps: RouteDeps, reads: Parameters<typeof prefetchSales>[0]) =>
  startQueries(deps, () => prefetchSales(reads));

/**
 * The route table for `createBrowserRouter`. Every page is its own lazily loaded chunk, so the
 * first page loads only the shell and itself; pages with a loader start their reads beside that
 * chunk. Until the first page is in, the frame index.html painted stays (`HydrateFallback`).
 */
export const createRoutes = (deps: RouteDeps): RouteObject[] => [
  {
    path: '/',
    Component: Layout,
    // The header's counts on every page, started once (the layout stays across moves).
    loader: startSales(deps, { orders: true, scoped: true }),
    shouldRevalidate: () => false,
    HydrateFallback: BootFrame,
    errorElement: <RouteError />,
    children: [
      {
        index: true,
        loader: startSales(deps, { orders: true, listings: true, scoped: true }),
        lazy: page(() => import('../features/overview/overview-page')),
      },
      {
        path: paths.listings.pattern,
        loader: startCatalogue(deps),
        shouldRevalidate: onEntry,
        lazy: page(() => import('../features/listings/catalogue/listings-page')),
      },
      {
        path: paths.newListing.pattern,
        lazy: page(() => import('../features/listings/forms/new-listing-page')),
      },
      {
        path: paths.bulkEdit.pattern,
        loader: startCatalogue(deps),
        shouldRevalidate: onEntry,
        lazy: page(() => import('../features/listings/bulk-edit/bulk-edit-page')),
      },
      {
        path: paths.listing.pattern,
        loader: startQueries(
          deps,
          async () => (await import('../api/listings/listing-detail-query')).prefetchListing,
        ),
        lazy: page(() => import('../features/listings/detail/listing-detail-page')),
      },
      {
        path: paths.editListing.pattern,
        loader: startQueries(
          deps,
          async () => (await import('../api/listings/listing-detail-query')).prefetchListing,
        ),
        lazy: page(() => import('../features/listings/forms/listing-edit-page')),
      },
      {
        path: paths.orders.pattern,
        loader: startQueries(deps, () => prefetchOrders),
        shouldRevalidate: onEntry,
        lazy: page(() => import('../features/orders/orders-page')),
      },
      {
        path: paths.order.pattern,
        loader: startQueries(deps, () => prefetchOrder),
        lazy: page(() => import('../features/orders/order-detail-page')),
      },
      {
        path: paths.inventory.pattern,
        loader: startQueries(
          deps,
          async () => (await import('../api/inventory/inventory-queries')).prefetch,
        ),
        shouldRevalidate: onEntry,
        lazy: page(() => import('../features/inventory/inventory-page')),
      },
      {
        path: paths.locations.pattern,
        loader: startQueries(
          deps,
          async () => (await import('../api/locations/locations-queries')).prefetch,
        ),
        lazy: page(() => import('../features/locations/locations-page')),
      },
      { path: paths.events.pattern, lazy: page(() => import('../features/events/events-page')) },
      {
        path: paths.activity.pattern,
        lazy: page(() => import('../features/activity/activity-page')),
      },
      { path: paths.shows.pattern, lazy: page(() => import('../features/show/ledger/shows-page')) },
      {
        path: paths.showCase.pattern,
        lazy: page(() => import('../features/show/ledger/show-case-page')),
      },
      {
        path: paths.show.pattern,
        loader: startCatalogue(deps),
        lazy: page(() => import('../features/show/ledger/show-page')),
      },
      {
        path: paths.showReceipt.pattern,
        lazy: page(() => import('../features/show/receipt/receipt-page')),
      },
      { path: paths.rules.pattern, lazy: page(() => import('../features/rules/rules-page')) },
      {
        path: paths.insights.pattern,
        loader: startSales(deps, { orders: true, listings: true }),
        shouldRevalidate: onEntry,
        lazy: page(() => import('../features/insights/insights-page')),
      },
      {
        path: paths.payouts.pattern,
        loader: startSales(deps, { orders: true }),
        lazy: page(() => import('../features/payouts/payouts-page')),
      },
      {
        path: paths.shipQueue.pattern,
        lazy: page(() => import('../features/orders/ship-queue-page')),
      },
      {
        path: paths.packingSheet.pattern,
        lazy: page(() => import('../features/orders/packing-sheet-page')),
      },
      {
        path: paths.showCert.pattern,
        loader: startCatalogue(deps),
        lazy: page(() => import('../features/show/counter/counter-page')),
      },
      { path: '*', Component: NotFound },
    ],
  },
];

/**
 * What shows while the first page's code loads: the very frame index.html paints before any
 * script runs (kept in step with it), so React's first render moves nothing on the screen.
 */
export function BootFrame() {
  return (
    <div className={`app mode-${bootMode() ?? 'unknown'}`}>
      <header>
        {/* The test strip from the first paint, as the layout draws it: nothing moves down. */}
        {bootMode() === 'test' && (
          <p className="test-strip" role="note">
            Test mode: you are looking at test records. Nothing here is real or visible to buyers.
          </p>
        )}
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
      <p>There is no page at this address: the link may be old or mistyped.</p>
      <p>
        Use the menu to find what you were looking for, or{' '}
        <Link to={paths.overview.to()}>go back to the overview</Link>.
      </p>
    </section>
  );
}
