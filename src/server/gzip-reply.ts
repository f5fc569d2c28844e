import type { IncomingMessage } from 'node:http';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Whether the browser is on this machine: over loopback packing only costs both ends CPU. */
export const fromThisMachine = (request: IncomingMessage) =>
  LOOPBACK.has(request.socket.remoteAddress ?? '');

export const acceptsGzip = (request: IncomingMessage) =>
  /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));

/** How hard answers are packed for a browser elsewhere (see docs/decisions/003-server.md). */
export const ANSWER_GZIP_LEVEL = 6;
