import type { Server } from 'node:http';

/**
 * Time limits on what a client sends, so a slow or silent one cannot hold a socket (and its
 * memory) for good: the headers within 20 s, the whole request within 60 s (a 1 MB body on a
 * slow phone line), idle kept-alive sockets closed after 5 s. Long answers (event streams,
 * walks) are not limited: these count only the request's way in.
 */
export function applyServerLimits(
  server: Server,
  limits: { headersMs?: number; requestMs?: number; idleSocketMs?: number } = {},
): void {
  server.headersTimeout = limits.headersMs ?? 20_000;
  server.requestTimeout = limits.requestMs ?? 60_000;
  server.keepAliveTimeout = 5_000;
  server.maxHeadersCount = 100;
  if (limits.idleSocketMs !== undefined) server.timeout = limits.idleSocketMs;
}
