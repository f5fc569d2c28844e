import type { IncomingMessage } from 'node:http';

/** Whether the browser takes gzip (its `Accept-Encoding` names it). */
export function acceptsGzip(request: IncomingMessage): boolean {
  return /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
}
