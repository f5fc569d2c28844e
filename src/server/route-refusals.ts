import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
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

/**
 * The one error handler of every route: a route schema's failure is the marketplace's 422
 * `validation_error` naming each field; Fastify's own refusals (a body too large, JSON that does
 * not parse) keep their status in the API's envelope, `max_bytes` said on a 413; the rest is 500.
 */
export function answerRefusals(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((issue) => ({
        path: issue.instancePath.split('/').filter(Boolean),
        message: issue.message ?? 'is not valid',
      }));
      return refuse(reply, 422, 'validation_error', fieldsOf(issues));
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'A request failed');
      return refuse(reply, 500, 'internal_error', 'Internal error.');
    }
    if (status === 413) {
      return refuse(reply, 413, 'body_too_large', 'The request is too large.', {
        max_bytes: request.routeOptions.bodyLimit,
      });
    }
    return refuse(reply, status, (error.code ?? 'bad_request').toLowerCase(), error.message);
  });
}
