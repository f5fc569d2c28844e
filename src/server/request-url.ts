import type { FastifyRequest } from 'fastify';

/** The path as sent, without its query: never parsed as a URL (`//x` is a path, not a host). */
export const pathnameOf = (request: FastifyRequest): string => request.url.split('?', 1)[0]!;

/** A request's target as a URL on `origin`: `//x` stays a path (`new URL('//x', base)` reads a host). */
export function requestUrl(target: string | undefined, origin = 'http://localhost'): URL {
  const path = target?.startsWith('/') ? target : `/${target ?? ''}`;
  return new URL(`${origin}${path}`);
}
