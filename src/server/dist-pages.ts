import { resolve } from 'node:path';
import type { PageSource } from './app-server';
import { readManifest, routePreloads, withModulePreloads } from './route-preloads';
import { createStaticFiles } from './static-files';

/**
 * Production: the bundle `npm run build` wrote to `dist/`. Each path's page names the code its
 * route loads first (see route-preloads), from the manifest the same build wrote.
 */
export function distPages(root = resolve(process.cwd(), 'dist')): PageSource {
  const files = createStaticFiles(root);
  let preloads: { html: string; forPath: Promise<(pathname: string) => string[]> } | undefined;
  return {
    development: false,
    serveAsset: (request, response, pathname) => files.serveAsset(request, response, pathname),
    async pageHtml(pathname) {
      const html = await files.indexHtml();
      if (html === null) return null;
      // The manifest is read again only when the page is another build's.
      if (preloads?.html !== html) {
        const forPath = readManifest(root).then((m) => (m ? routePreloads(m) : () => []));
        preloads = { html, forPath };
      }
      return withModulePreloads(html, (await preloads.forPath)(pathname));
    },
  };
}
