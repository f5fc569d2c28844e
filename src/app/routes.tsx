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

/** Filters in the address: the loader runs on entering the page, not on a change of query. */
export const onEntry: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}) => currentUrl.pathname !== nextUrl.pathname && defaultShouldRevalidate;

type PrefetchOf = () => Promise<Prefetch> | Prefetch;

/** A page's route: its own lazily loaded chunk (only its `Component`), its reads started beside. */
const page =
  (
    path: string | undefined,
    load: () => Promise<{ Component: ComponentType }>,
    prefetch?: PrefetchOf,
    filtersInAddress?: 'filters in address',
  ) =>
  (deps: RouteDeps): RouteObject => ({
    ...(path === undefined ? { index: true } : { path }),
    lazy: async () => ({ Component: (await load()).Component }),
    // The loader starts the page's queries and resolves at once: the page shows its own wait.
    ...(prefetch && {
      loader: async ({ params, request }: LoaderFunctionArgs) => {
        (await prefetch())(deps, { params, url: new URL(request.url) });
        return null;
      },
    }),
    ...(filtersInAddress && { shouldRevalidate: onEntry }),
  });

/** The kept listings and money reads are in the shell already; other prefetches load on demand. */
const catalogue = () => prefetchCatalogue;
const sales = (reads: Parameters<typeof prefetchSales>[0]) => () => prefetchSales(reads);
const listing = async () => (await import('../api/listings/listing-detail-query')).prefetchListing;
const FILTERS = 'filters in address';

/** Every page, in the menu's order; the overview is the index. */
const PAGES = [
  page(
    undefined,
    () => import('../features/overview/overview-page'),
    sales({ orders: true, listings: true, scoped: true }),
  ),
  page(
    paths.listings.pattern,
    () => import('../features/listings/catalogue/listings-page'),
    catalogue,
    FILTERS,
  ),
  page(paths.newListing.pattern, () => import('../features/listings/forms/new-listing-page')),
  page(
    paths.bulkEdit.pattern,
    () => import('../features/listings/bulk-edit/bulk-edit-page'),
    catalogue,
    FILTERS,
  ),
  page(
    paths.listing.pattern,
    () => import('../features/listings/detail/listing-detail-page'),
    listing,
  ),
  page(
    paths.editListing.pattern,
    () => import('../features/listings/forms/listing-edit-page'),
    listing,
  ),
  page(
    paths.orders.pattern,
    () => import('../features/orders/orders-page'),
    () => prefetchOrders,
    FILTERS,
  ),
  page(
    paths.order.pattern,
    () => import('../features/orders/order-detail-page'),
    () => prefetchOrder,
  ),
  page(
    paths.inventory.pattern,
    () => import('../features/inventory/inventory-page'),
    async () => (await import('../api/inventory/inventory-queries')).prefetch,
    FILTERS,
  ),
  page(
    paths.locations.pattern,
    () => import('../features/locations/locations-page'),
    async () => (await import('../api/locations/locations-queries')).prefetch,
  ),
  page(paths.events.pattern, () => import('../features/events/events-page')),
  page(paths.activity.pattern, () => import('../features/activity/activity-page')),
  page(paths.shows.pattern, () => import('../features/show/ledger/shows-page')),
  page(paths.showCase.pattern, () => import('../features/show/ledger/show-case-page')),
  page(
    paths.show.pattern,
    () => import('../features/show/ledger/show-page'),
    async () => (await import('../api/shows/show-queries')).prefetchShow,
  ),
  page(paths.showReceipt.pattern, () => import('../features/show/receipt/receipt-page')),
  page(paths.rules.pattern, () => import('../features/rules/rules-page')),
  page(
    paths.insights.pattern,
    () => import('../features/insights/insights-page'),
    sales({ orders: true, listings: true }),
    FILTERS,
  ),
  page(
    paths.payouts.pattern,
    () => import('../features/payouts/payouts-page'),
    sales({ orders: true }),
  ),
  page(paths.shipQueue.pattern, () => import('../features/orders/ship-queue-page')),
  page(paths.packingSheet.pattern, () => import('../features/orders/packing-sheet-page')),
  page(paths.showCert.pattern, () => import('../features/show/counter/counter-page'), catalogue),
];

/** The route table for `createBrowserRouter`; until the first page is in, index.html's frame stays. */
export const createRoutes = (deps: RouteDeps): RouteObject[] => [
  {
    path: '/',
    Component: Layout,
    HydrateFallback: BootFrame,
    errorElement: <RouteError />,
    children: [...PAGES.map((route) => route(deps)), { path: '*', Component: NotFound }],
  },
];

/** While the first page loads: index.html's own first frame (kept in step), so nothing moves. */
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
