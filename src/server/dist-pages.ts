import { resolve } from 'node:path';
import type { PageSource } from './app-server';
import { createStaticFiles } from './static-files';

/** Production: the bundle `npm run build` wrote to `dist/`. */
export function distPages(root = resolve(process.cwd(), 'dist')): PageSource {
  const files = createStaticFiles(root);
  return {
    development: false,
    serveAsset: (request, response, pathname) => files.serveAsset(request, response, pathname),
    pageHtml: () => files.indexHtml(),
  };
}
