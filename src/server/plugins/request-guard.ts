import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkRequest, type RequestKind } from '../request-guard';
import { isApiPath } from '../api-proxy';
import { isAuthWrite } from '../auth/sign-in-routes';

export const pathnameOf = (request: FastifyRequest): string =>
  new URL(request.url, 'http://localhost').pathname;

/** What a path asks for: the API, the hub and sign-in writes come only from our own page. */
function kindOf(request: FastifyRequest): RequestKind {
  const pathname = pathnameOf(request);
  const api = isApiPath(pathname) || pathname.startsWith('/hub/');
  return api || isAuthWrite(pathname, request.method) ? 'api' : 'page';
}

/**
 * Our own Host names only (no DNS rebinding), and API calls only from our own origin; see
 * request-guard.ts. `hosts` is read per request: the port is known only after listening.
 */
export function requestGuard(app: FastifyInstance, hosts: () => ReadonlySet<string>): void {
  app.addHook('onRequest', async (request, reply) => {
    const verdict = checkRequest(request.raw, hosts(), kindOf(request));
    if (verdict.ok) return;
    await reply
      .code(verdict.status)
      .header('cache-control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send(`Refused: ${verdict.reason}.\n`);
  });
}
