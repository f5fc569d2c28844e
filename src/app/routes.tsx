import type { RouteObject } from 'react-router';
import { Loading } from '../components/states';
import { Layout } from './layout';
import { paths } from '../lib/paths';
import { RouteError } from './route-error';

/**
 * The route table. Every page is its own lazily loaded chunk, so the first page loads only the
 * shell and itself.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Layout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <Loading />,
    children: [
      { index: true, lazy: () => import('../features/overview/overview-page') },
      { path: paths.listings.pattern, lazy: () => import('../features/listings/listings-page') },
      {
        path: paths.newListing.pattern,
        lazy: () => import('../features/listings/new-listing-page'),
      },
      {
        path: paths.bulkEdit.pattern,
        lazy: () => import('../features/listings/bulk-edit/bulk-edit-page'),
      },
      {
        path: paths.listing.pattern,
        lazy: () => import('../features/listings/listing-detail-page'),
      },
      {
        path: paths.editListing.pattern,
        lazy: () => import('../features/listings/listing-edit-page'),
      },
      { path: paths.orders.pattern, lazy: () => import('../features/orders/orders-page') },
      { path: paths.order.pattern, lazy: () => import('../features/orders/order-detail-page') },
      { path: paths.inventory.pattern, lazy: () => import('../features/inventory/inventory-page') },
      { path: paths.locations.pattern, lazy: () => import('../features/locations/locations-page') },
      { path: paths.events.pattern, lazy: () => import('../features/events/events-page') },
      { path: paths.insights.pattern, lazy: () => import('../features/insights/insights-page') },
      { path: paths.payouts.pattern, lazy: () => import('../features/payouts/payouts-page') },
      { path: paths.shipQueue.pattern, lazy: () => import('../features/orders/ship-queue-page') },
      {
        path: paths.packingSheet.pattern,
        lazy: () => import('../features/orders/packing-sheet-page'),
      },
      { path: '*', element: <NotFound /> },
    ],
  },
];

function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>There is no page at this address.</p>
    </section>
  );
}
