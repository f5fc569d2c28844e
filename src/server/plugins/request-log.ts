import type { FastifyInstance } from 'fastify';
import type { Admission } from '../auth/auth-gate';
import { pathnameOf } from '../request-url';

/** One line per request once answered (hijacked ones too); the path without its query (secrets). */
export function requestLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const started = performance.now();
    reply.raw.once('close', () => {
      // Unset when the gate refused the request: no one is named.
      const actor = (request.admission as Admission | null)?.actor;
      const path = pathnameOf(request);
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
