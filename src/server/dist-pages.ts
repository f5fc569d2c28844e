import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { PageSource } from './routes/pages';
import type { Manifest } from 'vite';
import { routePreloads, withModulePreloads } from './route-preloads';

/** Where `npm run build` writes the page (the compiled server sits beside it, in `dist/`). */
export const PAGE_DIR = 'dist/page';
/** Vite's manifest (`build.manifest`), under the bundle's root: a dot-named folder, never served. */
const MANIFEST_PATH = '.vite/manifest.json';

/** The page is served with its boot facts by the page route, never as the file it is. */
const isPageFile = (path: string) => /(^|\/)index\.html(\.(gz|br))?$/.test(path);

/** Production: the build's files with their `.br`/`.gz` twins, never a dot-named one (`.vite/`). */
export function distPages(root = resolve(process.cwd(), PAGE_DIR)): PageSource {
  let preloads: { html: string; forPath: Promise<(pathname: string) => string[]> } | undefined;
  return {
    development: false,
    async register(app) {
      // The build's files are open to anyone: the sign-in page and the offline app need them.
      await app.register(async (files) => {
        files.addHook('onRoute', (route) => {
          route.config = { ...route.config, access: 'public' };
        });
        await files.register(fastifyStatic, {
          root,
          index: false,
          serveDotFiles: false,
          dotfiles: 'ignore',
          preCompressed: true,
          cacheControl: false,
          // A folder (`/`, `//`) is never a file: the page route answers it, whatever the client accepts.
          allowedPath: (pathname) => !isPageFile(pathname) && !pathname.endsWith('/'),
          setHeaders: (reply, path) => {
            if (path.includes('/assets/')) {
              reply.header('cache-control', 'public, max-age=31536000, immutable');
            }
          },
        });
      });
    },
    async pageHtml(pathname) {
      let html: string;
      try {
        html = await readFile(join(root, 'index.html'), 'utf8');
      } catch {
        return null;
      }
      // The manifest is read again only when the page is another build's; none: no preloads.
      if (preloads?.html !== html) {
        const forPath = readFile(join(root, MANIFEST_PATH), 'utf8')
          .then((text) => routePreloads(JSON.parse(text) as Manifest))
          .catch(() => () => []);
        preloads = { html, forPath };
      }
      return withModulePreloads(html, (await preloads.forPath)(pathname));
    },
  };
}
