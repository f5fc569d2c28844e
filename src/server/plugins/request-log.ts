import type { FastifyInstance } from 'fastify';
import type { Admission } from '../auth/auth-gate';

/**
 * One line per request, when its answer is done: method, path without the query (a cursor or a
 * mistyped secret stays out), status, time and who asked. Hijacked replies (the proxy, event
 * streams) are logged the same way, from the socket's side.
 */
export function requestLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const started = performance.now();
    reply.raw.once('close', () => {
      // Unset when the gate refused the request (plugins/sign-in-gate.ts): no one is named.
      const actor = (request.admission as Admission | null)?.actor;
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
