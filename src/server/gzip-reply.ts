import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** Whether the browser takes gzip (its `Accept-Encoding` names it). */
export function acceptsGzip(request: IncomingMessage): boolean {
  return /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
}

/**
 * How hard the proxy packs the API's answers for a browser elsewhere: zlib's default level, which
 * packs a page of listings a fifth smaller than the fastest level (docs/decisions/003-server.md).
 */
export const ANSWER_GZIP_LEVEL = 6;

/**
 * The one way a whole body leaves the server: `packed` (its gzip, made by the caller, who knows
 * what is worth caching) when there is one and the browser takes it; HEAD gets the headers only.
 */
export function sendBody(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders,
  body: Buffer,
  packed?: Buffer,
): void {
  const gzip = packed !== undefined && acceptsGzip(request);
  const sent = gzip ? packed : body;
  // A proxied HEAD has no body to measure: its length is not claimed.
  const measured = sent.length > 0 || request.method !== 'HEAD';
  response.writeHead(status, {
    ...headers,
    ...(measured ? { 'content-length': sent.length } : {}),
    vary: 'Accept-Encoding',
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
  });
  response.end(request.method === 'HEAD' ? undefined : sent);
}
