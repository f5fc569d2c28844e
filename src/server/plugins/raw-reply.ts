import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorEnvelope } from '../error-envelope';

/** A handler on the raw response (streams, exact bytes): Fastify lets go, so errors end here. */
export const rawReply =
  (serve: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
  async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    reply.hijack();
    try {
      await serve(request, reply);
    } catch (error) {
      request.log.error({ err: error }, 'A request failed');
      if (reply.raw.headersSent) return void reply.raw.destroy();
      const headers = {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
      };
      reply.raw
        .writeHead(500, headers)
        .end(JSON.stringify(errorEnvelope('internal_error', 'Internal error.')));
    }
  };
