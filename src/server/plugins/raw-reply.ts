import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendEnvelope } from '../error-envelope';

/** A handler on the raw response (streams, exact bytes): Fastify lets go, so errors end here. */
export const rawReply =
  (serve: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
  async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    reply.hijack();
    try {
      await serve(request, reply);
    } catch (error) {
      request.log.error({ err: error }, 'A request failed');
      if (!reply.raw.headersSent) sendEnvelope(reply.raw, 500, 'internal_error', 'Internal error.');
      else reply.raw.destroy();
    }
  };
