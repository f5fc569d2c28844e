import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Whether the browser is on this machine: over loopback packing only costs both ends CPU. */
export function fromThisMachine(request: IncomingMessage): boolean {
  return LOOPBACK.has(request.socket.remoteAddress ?? '');
}

/** Whether the browser takes gzip (its `Accept-Encoding` names it). */
export function acceptsGzip(request: IncomingMessage): boolean {
  return /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
}

/** How hard the proxy packs answers for a browser elsewhere (see docs/decisions/003-server.md). */
export const ANSWER_GZIP_LEVEL = 6;

/** Sends a whole body, or `packed` (its gzip, cached by the caller) when the browser takes it. */
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
