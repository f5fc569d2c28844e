import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
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

/**
 * What Node refuses before there is a request to route (a request line or header it cannot read,
 * headers past their size, a request still arriving at its timeout), in the envelope on the socket;
 * Fastify's `clientErrorHandler`. The connection ends with it.
 */
export function refuseUnreadable(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has no one left to tell.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, words] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'request_timeout', 'The request took too long to arrive.']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'headers_too_large', 'The request’s address and headers are too large.']
        : [400, 'malformed_request', 'The request could not be read.'];
  const body = JSON.stringify(errorEnvelope(code, words));
  if (socket.writable) {
    socket.write(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        'content-type: application/json; charset=utf-8',
        'cache-control: no-store',
        `content-length: ${Buffer.byteLength(body)}`,
        'connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  }
  socket.destroy(error);
}
