import type { ServerResponse } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/**
 * The API's error envelope, the one way every refusal of the server's own is answered: built
 * here, sent on the raw response or by a route, and the routes' one error handler.
 */

/** The envelope itself. */
export function errorEnvelope(
  code: string,
  message: unknown,
  extra: Record<string, unknown> = {},
): { errors: unknown; svc_error: Record<string, unknown> } {
  return { errors: message, svc_error: { code, request_id: null, ...extra } };
}

/** A zod failure's issues as the 422's fields (`{ "keys.auth": ["…"] }`), the whole body as `body`. */
export function fieldsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = issue.path.map(String).join('.') || 'body';
    (fields[field] ??= []).push(issue.message);
  }
  return fields;
}

/** A refusal on the raw response (a route that answers there: the proxy, sign-in, the gate). */
export function sendEnvelope(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): void {
  const body = JSON.stringify(errorEnvelope(code, message, extra));
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(body);
}

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
