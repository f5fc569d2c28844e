import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';

/** A request header's value (Node joins a repeated one, but for `set-cookie`). */
export const headerOf = (request: IncomingMessage, name: string): string | undefined =>
  [request.headers[name]].flat()[0];

/** The path as sent, without its query: never parsed as a URL (`//x` is a path, not a host). */
export const pathnameOf = (request: FastifyRequest): string => request.url.split('?', 1)[0]!;

/** A request's target as a URL on `origin`: `//x` stays a path (`new URL('//x', base)` reads a host). */
export function requestUrl(target: string | undefined, origin = 'http://localhost'): URL {
  const path = target?.startsWith('/') ? target : `/${target ?? ''}`;
  return new URL(`${origin}${path}`);
}
