import type { FastifyInstance } from 'fastify';
import type { Actor } from '../auth/roles';

/** Who a request was for, once the sign-in gate knows (the log line names them). */
export const actorOfRequest = new WeakMap<object, Actor | null>();

/**
 * One line per request, when its answer is done: method, path without the query (a cursor or a
 * mistyped secret stays out), status, time and who asked. Hijacked replies (the proxy, event
 * streams) are logged the same way, from the socket's side.
 */
export function requestLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const started = performance.now();
    reply.raw.once('close', () => {
      const actor = actorOfRequest.get(request.raw);
      const path = request.url.split('?')[0] ?? '/';
      const ms = Math.round(performance.now() - started);
      const status = reply.raw.statusCode;
      const finished = reply.raw.writableFinished;
      app.log.info(
        { method: request.method, path, status, ms, user: actor?.name, finished },
        `${request.method} ${path} ${status} ${ms} ms${finished ? '' : ' (closed early)'}`,
      );
    });
  });
}
