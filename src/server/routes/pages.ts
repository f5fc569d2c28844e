import type { FastifyInstance } from 'fastify';
import type { Upstream } from '../api-proxy';
import type { AuthGate } from '../auth/auth-gate';
import { withBootFacts } from '../boot-facts';
import { contentSecurityPolicy, inlineStyleHashes, newNonce } from '../security-headers';
import type { PageSource } from '../page-source';
import { pathnameOf } from '../plugins/request-guard';

export interface PageRouteDeps {
  pages: PageSource;
  gate: AuthGate;
  upstream: Upstream;
  /** The embedded sandbox, whose demo slab pictures the page may show (only that origin). */
  imageOrigins: readonly string[];
}

/**
 * The page for every path no route or file took: the app's HTML with the boot facts and a policy
 * of its own (its inline styles by hash; in development, Vite's scripts by nonce).
 */
export function pageRoute(app: FastifyInstance, deps: PageRouteDeps): void {
  const { pages, gate, upstream, imageOrigins } = deps;
  app.setNotFoundHandler(async (request, reply) => {
    const { admission } = request;
    if (!admission.pageAllowed) {
      reply.hijack();
      gate.toSignIn(request.raw, reply.raw);
      return;
    }
    const nonce = pages.development ? newNonce() : undefined;
    const page = await pages.pageHtml(pathnameOf(request), nonce);
    if (page === null) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The dashboard is not built: run `npm run build` first.\n');
    }
    const html = withBootFacts(page, upstream, admission.session, { days: gate.keepDays });
    // The inline styles are the bundle's (in `page`), not the boot facts added to it.
    const styleHashes = inlineStyleHashes(page);
    const host = request.headers.host;
    return reply
      .header(
        'content-security-policy',
        contentSecurityPolicy({ nonce, host, styleHashes, imageOrigins }),
      )
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(html);
  });
}
