import type { Server } from 'node:http';

/** Limits on a request's way in, so a slow or silent client cannot hold a socket for good. */
export const SERVER_LIMITS = {
  headersMs: 20_000,
  requestMs: 60_000,
  keepAliveMs: 5_000,
  maxHeaders: 100,
};

/** The same limits on a plain `node:http` server; long answers (streams, walks) are not limited. */
export function applyServerLimits(
  server: Server,
  limits: Partial<typeof SERVER_LIMITS> & { idleSocketMs?: number } = {},
): void {
  const { headersMs, requestMs, keepAliveMs, maxHeaders } = { ...SERVER_LIMITS, ...limits };
  server.headersTimeout = headersMs;
  server.requestTimeout = requestMs;
  server.keepAliveTimeout = keepAliveMs;
  server.maxHeadersCount = maxHeaders;
  if (limits.idleSocketMs !== undefined) server.timeout = limits.idleSocketMs;
}
