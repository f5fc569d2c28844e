import type { FastifyInstance, FastifyReply } from 'fastify';
import type { z } from 'zod';
import { errorEnvelope, fieldsOf } from './error-envelope';

/** A refusal of one of the hub's own JSON routes, in the API's envelope and never cached. */
export function refuse(
  reply: FastifyReply,
  status: number,
  code: string,
  /** The words, or a 422's fields (`{ field: ["…"] }`) as the marketplace sends them. */
  message: unknown,
  extra: Record<string, unknown> = {},
) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .send(errorEnvelope(code, message, extra));
}

/** A zod failure as a 422 naming each field, as the marketplace answers a bad write. */
export function refuseFields(reply: FastifyReply, error: z.ZodError) {
  return refuse(reply, 422, 'validation_error', fieldsOf(error.issues));
}

/**
 * Every refusal Fastify makes for a plugin's routes (a body too large, JSON that does not parse)
 * in the API's envelope too, as the rest of the hub answers; `maxBytes` is said on a 413.
 */
export function refusalsInEnvelope(app: FastifyInstance, maxBytes: number): void {
  app.setErrorHandler(
    (error: { statusCode?: number; code?: string; message?: string }, request, reply) => {
      const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
      if (status >= 500) {
        request.log.error({ err: error }, 'A hub request failed');
        return refuse(reply, 500, 'internal_error', 'Internal error.');
      }
      if (status === 413) {
        return refuse(reply, 413, 'body_too_large', 'The request is too large.', {
          max_bytes: maxBytes,
        });
      }
      return refuse(
        reply,
        status,
        (error.code ?? 'bad_request').toLowerCase(),
        error.message ?? 'Bad request.',
      );
    },
  );
}
