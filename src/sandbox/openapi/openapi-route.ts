import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from './document';

/** `GET /_sandbox/openapi.json`: the document, with this sandbox's own URL as its server. */
export function registerOpenApiRoute(app: FastifyInstance): void {
  app.get('/_sandbox/openapi.json', async (request, reply) => {
    const host = request.headers.host ?? '127.0.0.1:4010';
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .send(buildOpenApiDocument(`${request.protocol}://${host}`));
  });
}
