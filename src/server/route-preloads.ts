import type { Manifest } from 'vite';
import { paths } from '../shared/paths';

// Each route's page chunk and the module its loader imports, as src/app/routes.tsx imports them
// (a test keeps the two in step), from `src/`.
const LISTING_QUERY = 'api/listings/listing-detail-query.ts';
const ROUTES: [keyof typeof paths, ...string[]][] = [
  ['overview', 'features/overview/overview-page.tsx'],
  ['listings', 'features/listings/catalogue/listings-page.tsx'],
  ['newListing', 'features/listings/forms/new-listing-page.tsx'],
  ['bulkEdit', 'features/listings/bulk-edit/bulk-edit-page.tsx'],
  ['listing', 'features/listings/detail/listing-detail-page.tsx', LISTING_QUERY],
  ['editListing', 'features/listings/forms/listing-edit-page.tsx', LISTING_QUERY],
  ['orders', 'features/orders/orders-page.tsx'],
  ['order', 'features/orders/order-detail-page.tsx'],
  ['inventory', 'features/inventory/inventory-page.tsx', 'api/inventory/inventory-queries.ts'],
  ['locations', 'features/locations/locations-page.tsx', 'api/locations/locations-queries.ts'],
  ['events', 'features/events/events-page.tsx'],
  ['insights', 'features/insights/insights-page.tsx'],
  ['activity', 'features/activity/activity-page.tsx'],
  ['payouts', 'features/payouts/payouts-page.tsx'],
  ['shipQueue', 'features/orders/ship-queue-page.tsx'],
  ['packingSheet', 'features/orders/packing-sheet-page.tsx'],
  ['rules', 'features/rules/rules-page.tsx'],
  ['shows', 'features/show/ledger/shows-page.tsx'],
  ['showReceipt', 'features/show/receipt/receipt-page.tsx'],
  ['showCase', 'features/show/ledger/show-case-page.tsx'],
  ['show', 'features/show/ledger/show-page.tsx', 'api/shows/show-queries.ts'],
  ['showCert', 'features/show/counter/counter-page.tsx'],
];

export const ROUTE_MODULES = ROUTES.map(([name, ...modules]) => ({
  pattern: paths[name].pattern,
  modules: modules.map((module) => `src/${module}`),
}));

/** The files of the chunks `keys` and of every chunk they import, transitively. */
function withImports(manifest: Manifest, keys: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string): void => {
    if (!manifest[key] || seen.has(key)) return;
    seen.add(key);
    manifest[key].imports?.forEach(visit);
  };
  for (const key of keys) visit(key);
  return new Set([...seen].map((key) => manifest[key]!.file));
}

/** For a path, the chunks its route loads beyond the entry's: its loader's first, then its page's. */
export function routePreloads(manifest: Manifest): (pathname: string) => string[] {
  const entries = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  const shell = withImports(manifest, entries);
  const routes = ROUTE_MODULES.map(({ pattern, modules }) => ({
    segments: segmentsOf(pattern),
    files: [...withImports(manifest, [...modules].reverse())].filter((file) => !shell.has(file)),
  }));
  // As the router ranks them: a static segment before a `:param` (`/listings/new`, not `:listingId`).
  const params = (segments: string[]) => segments.filter((s) => s.startsWith(':')).length;
  routes.sort((a, b) => params(a.segments) - params(b.segments));
  return (pathname) => {
    const path = segmentsOf(pathname);
    const route = routes.find(
      ({ segments }) =>
        segments.length === path.length &&
        segments.every((s, i) => s.startsWith(':') || s.toLowerCase() === path[i]!.toLowerCase()),
    );
    return route?.files ?? [];
  };
}

// The router's own matcher (react-router) would load a browser library into the server for this.
const segmentsOf = (path: string) => path.split('/').filter(Boolean);

// The browser fetches the route's code alongside the entry's, not a round trip after running it.
export function withModulePreloads(html: string, files: readonly string[]): string {
  if (files.length === 0) return html;
  const links = files
    .map((file) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="/${file}">`)
    .join('\n    ');
  return html.replace('</head>', `  ${links}\n  </head>`);
}
