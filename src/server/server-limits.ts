import type { Server } from 'node:http';

/**
 * Limits on a request's way in, so a slow or silent client cannot hold a socket for good; long
 * answers (event streams, walks) are not limited.
 */
export function applyServerLimits(
  server: Server,
  limits: {
    headersMs?: number;
    requestMs?: number;
    idleSocketMs?: number;
    keepAliveMs?: number;
  } = {},
): void {
  server.headersTimeout = limits.headersMs ?? 20_000;
  server.requestTimeout = limits.requestMs ?? 60_000;
  server.keepAliveTimeout = limits.keepAliveMs ?? 5_000;
  server.maxHeadersCount = 100;
  if (limits.idleSocketMs !== undefined) server.timeout = limits.idleSocketMs;
}
