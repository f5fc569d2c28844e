import { readFile } from 'node:fs/promises';
import { existsSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Server } from 'node:http';
import type { PageSource } from './routes/pages';
import { requestUrl } from './request-url';

/** Vite's placeholder nonce, replaced per request by the page's own. */
const NONCE_PLACEHOLDER = 'slabdesk-dev-nonce';

/** Vite's modules, the source tree and `public/`; never a dot-named folder (`.sandbox/`, `.env`). */
function viteAssets(root: string): (pathname: string) => boolean {
  // A file by its absolute path: only the source tree's and the dependencies' (a symlinked
  // node_modules, as in a git worktree, Vite names by its target).
  const modules = join(root, 'node_modules');
  const folders = [
    join(root, 'src'),
    modules,
    existsSync(modules) ? realpathSync(modules) : modules,
  ];
  return (pathname) => {
    if (pathname === '/' || pathname === '/index.html') return false;
    if (pathname.split('/').some((part) => part.startsWith('.') && part !== '.vite')) return false;
    if (pathname.startsWith('/@fs/')) {
      const file = pathname.slice('/@fs'.length);
      return folders.some((folder) => file.startsWith(`${folder}/`));
    }
    // A file at the top is one of `public/` (the favicon), never one of the project's own.
    const top = /^\/([^/]+\.[a-z0-9]+)$/i.exec(pathname)?.[1];
    if (top !== undefined) return existsSync(join(root, 'public', top));
    return /^\/(@vite|@id|@react-refresh|src|node_modules)(\/|$)/.test(pathname);
  };
}

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
    server: {
      middlewareMode: true,
      ws: { server },
      // Our guard checks Host first; Vite's own check must accept the same extra names.
      allowedHosts: [...allowedHosts],
      // The stores beside the source tree are the server's, never the page's.
      fs: { deny: ['.env', '.env.*', '*.{crt,pem,key}', '**/.sandbox/**', '**/*.db', '**/*.db-*'] },
    },
    html: { cspNonce: NONCE_PLACEHOLDER },
  });
  // The dependencies pre-bundled before the server says it is ready: the first page finds none
  // missing (no reload). A warm cache (node_modules/.vite) has none to do.
  const optimizer = vite.environments.client.depsOptimizer;
  await optimizer?.scanProcessing;
  await Promise.all(
    Object.values(optimizer?.metadata.discovered ?? {}).map((dep) => dep.processing),
  );
  const isViteAsset = viteAssets(resolve(root));
  return {
    development: true,
    async register(app) {
      // Vite answers on the raw response, or hands the request on to the routes (as a
      // middleware would): its modules, the source tree and public/ only.
      app.addHook('onRequest', (request, reply, done) => {
        const pathname = requestUrl(request.url).pathname;
        if (!isViteAsset(pathname)) return done();
        // The source tree needs the session a page needs (the build's files are open).
        if (!request.admission.pageAllowed) return done();
        vite.middlewares(request.raw, reply.raw, (error?: unknown) =>
          done(error instanceof Error ? error : undefined),
        );
      });
    },
    async pageHtml(pathname, nonce) {
      const template = await readFile(resolve(root, 'index.html'), 'utf8');
      const html = await vite.transformIndexHtml(pathname, template);
      return html.split(NONCE_PLACEHOLDER).join(nonce ?? '');
    },
    close: () => vite.close(),
  };
}
