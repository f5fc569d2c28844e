import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

// The API's error envelope: every refusal of the server's own, raw or by a route, and the routes'
// one error handler.
export function errorEnvelope(
  code: string,
  message: unknown,
  extra: Record<string, unknown> = {},
): { errors: unknown; svc_error: Record<string, unknown> } {
  return { errors: message, svc_error: { code, request_id: null, ...extra } };
}

/** A route's refusal, never cached: `message` the words, or a 422's fields (`{ field: ["…"] }`). */
export function refuse(
  reply: FastifyReply,
  status: number,
  code: string,
  message: unknown,
  extra: Record<string, unknown> = {},
) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .send(errorEnvelope(code, message, extra));
}

/** Schema failures: 422 `validation_error` by field; Fastify's refusals keep their status; else 500. */
export function answerRefusals(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      // The issues by field (`{ "keys.auth": ["…"] }`), the whole body as `body`.
      const fields: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.split('/').filter(Boolean).join('.') || 'body';
        (fields[field] ??= []).push(issue.message ?? 'is not valid');
      }
      return refuse(reply, 422, 'validation_error', fields);
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
