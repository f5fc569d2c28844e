import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkRequest, type RequestKind } from '../request-guard';
import { accessOf, isWrite } from '../auth/roles';
import { refuse } from '../error-envelope';
import { safeDecode } from '../../shared/safe-decode';
import { pathnameOf } from '../request-url';

/** No empty segment but a trailing one, no `.`/`..` however spelled, no backslash, all decode. */
export function isCanonicalPath(pathname: string): boolean {
  if (!pathname.startsWith('/') || pathname.includes('\\')) return false;
  const segments = pathname.split('/').slice(1);
  return segments.every((segment, index) => {
    const decoded = safeDecode(segment);
    if (decoded === null || decoded === '.' || decoded === '..') return false;
    return segment !== '' || index === segments.length - 1;
  });
}

/** The answer to a request whose address is not well formed. */
export const refuseMalformed = (reply: FastifyReply): FastifyReply =>
  refuse(
    reply.header('x-content-type-options', 'nosniff'),
    400,
    'malformed_request',
    'That address is not well formed.',
  );

/** A page or a public route's read may be opened from a link; any other call is our page's. */
function kindOf(request: FastifyRequest): RequestKind {
  const access = accessOf(request);
  return access === 'page' || (access === 'public' && !isWrite(request.method)) ? 'page' : 'api';
}

/**
 * Canonical paths only (400: the router, a file server and a proxy read one path alike), our own
 * Host names only (no DNS rebinding), API calls only from our own origin (../request-guard.ts).
 * `hosts` is read per request: the port is known only after listening.
 */
export function requestGuard(app: FastifyInstance, hosts: () => ReadonlySet<string>): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!isCanonicalPath(pathnameOf(request))) return refuseMalformed(reply);
    const verdict = checkRequest(request.raw, hosts(), kindOf(request));
    if (verdict.ok) return;
    await reply
      .code(verdict.status)
      .header('cache-control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send(`Refused: ${verdict.reason}.\n`);
  });
}
