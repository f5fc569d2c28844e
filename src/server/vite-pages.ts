import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Server } from 'node:http';
import type { PageSource } from './app-server';

/** Vite's placeholder nonce, replaced per request by the page's own. */
const NONCE_PLACEHOLDER = 'slabdesk-dev-nonce';

/** Development: Vite in middleware mode on the app server, HMR over the same port. */
export async function vitePages(
  server: Server,
  root = process.cwd(),
  allowedHosts: readonly string[] = [],
): Promise<PageSource> {
  const { createServer } = await import('vite');
  const vite = await createServer({
    root,
    appType: 'custom',
    // Our guard checks Host first; Vite's own check must accept the same extra names.
    server: { middlewareMode: true, hmr: { server }, allowedHosts: [...allowedHosts] },
    html: { cspNonce: NONCE_PLACEHOLDER },
  });
  server.on('close', () => void vite.close());
  return {
    development: true,
    serveAsset: (request, response, pathname) =>
      new Promise<boolean>((done, fail) => {
        if (
          pathname === '/' ||
          pathname === '/index.html' ||
          !/\.|^\/@|^\/node_modules\//.test(pathname)
        ) {
          done(false);
          return;
        }
        vite.middlewares(request, response, (error?: unknown) => {
          if (error) fail(error);
          else done(false);
        });
      }),
    async pageHtml(pathname, nonce) {
      const template = await readFile(resolve(root, 'index.html'), 'utf8');
      const html = await vite.transformIndexHtml(pathname, template);
      return html.split(NONCE_PLACEHOLDER).join(nonce ?? '');
    },
  };
}
