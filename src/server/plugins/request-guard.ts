import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkRequest, type RequestKind } from '../request-guard';
import { accessOf } from '../auth/roles';
import { errorEnvelope } from '../error-envelope';
import { safeDecode } from '../../shared/safe-decode';

/** The path as sent, without its query: never parsed as a URL (`//x` is a path, not a host). */
export const pathnameOf = (request: FastifyRequest): string => {
  const query = request.url.indexOf('?');
  return query === -1 ? request.url : request.url.slice(0, query);
};

/**
 * Whether a path is in its one canonical form: no empty segment but a trailing one, no `.` or
 * `..` segment however spelled, no backslash, and every segment decodes. Anything else would be
 * read one way by the router and another by a file server or a proxy.
 */
export function isCanonicalPath(pathname: string): boolean {
  if (!pathname.startsWith('/') || pathname.includes('\\')) return false;
  const segments = pathname.split('/').slice(1);
  return segments.every((segment, index) => {
    const decoded = safeDecode(segment);
    if (decoded === null || decoded === '.' || decoded === '..') return false;
    return segment !== '' || index === segments.length - 1;
  });
}

/** The answer to a request whose address is not well formed, in the API's error envelope. */
export function refuseMalformed(reply: FastifyReply): FastifyReply {
  return reply
    .code(400)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(errorEnvelope('malformed_request', 'That address is not well formed.'));
}

/**
 * What a request asks for, by its route's access: a page, or a public route read (the health
 * check, sign-in's form, build files), may be opened from a link; everything else (the API, the
 * hub, sign-in's writes, the deliveries) is a call that comes only from our own page.
 */
function kindOf(request: FastifyRequest): RequestKind {
  const access = accessOf(request);
  const read = request.method === 'GET' || request.method === 'HEAD';
  return access === 'page' || (access === 'public' && read) ? 'page' : 'api';
}

/**
 * Canonical paths only (400 otherwise), our own Host names only (no DNS rebinding), and API
 * calls only from our own origin; see
 * request-guard.ts. `hosts` is read per request: the port is known only after listening.
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
