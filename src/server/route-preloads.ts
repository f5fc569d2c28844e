import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { matchRoutes } from 'react-router';
import type { Manifest } from 'vite';
import { paths } from '../shared/paths';

/**
 * The modules each route loads as soon as it is opened: its page's chunk and the module its
 * loader imports (as src/app/routes.tsx imports them; a test keeps the two in step), by their
 * paths in the repository.
 */
export const ROUTE_MODULES: readonly { pattern: string; modules: readonly string[] }[] = [
  { pattern: paths.overview.pattern, modules: ['src/features/overview/overview-page.tsx'] },
  {
    pattern: paths.listings.pattern,
    modules: ['src/features/listings/catalogue/listings-page.tsx'],
  },
  {
    pattern: paths.newListing.pattern,
    modules: ['src/features/listings/forms/new-listing-page.tsx'],
  },
  {
    pattern: paths.bulkEdit.pattern,
    modules: ['src/features/listings/bulk-edit/bulk-edit-page.tsx'],
  },
  {
    pattern: paths.listing.pattern,
    modules: [
      'src/features/listings/detail/listing-detail-page.tsx',
      'src/api/listings/listing-detail-query.ts',
    ],
  },
  {
    pattern: paths.editListing.pattern,
    modules: [
      'src/features/listings/forms/listing-edit-page.tsx',
      'src/api/listings/listing-detail-query.ts',
    ],
  },
  {
    pattern: paths.orders.pattern,
    modules: ['src/features/orders/orders-page.tsx'],
  },
  {
    pattern: paths.order.pattern,
    modules: ['src/features/orders/order-detail-page.tsx'],
  },
  {
    pattern: paths.inventory.pattern,
    modules: [
      'src/features/inventory/inventory-page.tsx',
      'src/api/inventory/inventory-queries.ts',
    ],
  },
  {
    pattern: paths.locations.pattern,
    modules: [
      'src/features/locations/locations-page.tsx',
      'src/api/locations/locations-queries.ts',
    ],
  },
  { pattern: paths.events.pattern, modules: ['src/features/events/events-page.tsx'] },
  { pattern: paths.insights.pattern, modules: ['src/features/insights/insights-page.tsx'] },
  { pattern: paths.activity.pattern, modules: ['src/features/activity/activity-page.tsx'] },
  { pattern: paths.payouts.pattern, modules: ['src/features/payouts/payouts-page.tsx'] },
  { pattern: paths.shipQueue.pattern, modules: ['src/features/orders/ship-queue-page.tsx'] },
  {
    pattern: paths.packingSheet.pattern,
    modules: ['src/features/orders/packing-sheet-page.tsx'],
  },
  { pattern: paths.rules.pattern, modules: ['src/features/rules/rules-page.tsx'] },
  { pattern: paths.shows.pattern, modules: ['src/features/show/ledger/shows-page.tsx'] },
  { pattern: paths.showReceipt.pattern, modules: ['src/features/show/receipt/receipt-page.tsx'] },
  { pattern: paths.showCase.pattern, modules: ['src/features/show/ledger/show-case-page.tsx'] },
  { pattern: paths.show.pattern, modules: ['src/features/show/ledger/show-page.tsx'] },
  { pattern: paths.showCert.pattern, modules: ['src/features/show/counter/counter-page.tsx'] },
];

/** Vite's manifest (`build.manifest`), under the bundle's root: never served (see dist-pages). */
const MANIFEST_PATH = '.vite/manifest.json';

/** The manifest of the bundle at `root`, or undefined when it has none. */
export async function readManifest(root: string): Promise<Manifest | undefined> {
  try {
    return JSON.parse(await readFile(join(root, MANIFEST_PATH), 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

/** The files of the manifest's chunks `keys` and of every chunk they import, transitively. */
function withImports(manifest: Manifest, keys: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return files;
}

/**
 * For a path, the chunks its route loads beyond those the page names already (the entry and
 * its imports): its loader's module first (the page's reads wait for it), then the page's chunk,
 * and what they import. Built once per bundle.
 */
export function routePreloads(manifest: Manifest): (pathname: string) => string[] {
  const entries = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  const shell = withImports(manifest, entries);
  const routes = ROUTE_MODULES.map(({ pattern, modules }) => ({
    path: pattern,
    files: [...withImports(manifest, [...modules].reverse())].filter((file) => !shell.has(file)),
  }));
  return (pathname) => matchRoutes(routes, pathname)?.[0]?.route.files ?? [];
}

/**
 * The page with a `<link rel="modulepreload">` for each of `files`, at the end of its head: the
 * browser fetches the route's code alongside the entry's, not after running it (on a phone's
 * network, a round trip and the entry's start-up later).
 */
export function withModulePreloads(html: string, files: readonly string[]): string {
  if (files.length === 0) return html;
  const links = files
    .map((file) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="/${file}">`)
    .join('\n    ');
  return html.replace('</head>', `  ${links}\n  </head>`);
}
