import type { FastifyInstance } from 'fastify';

/** A raw plugin's routes read (bounded) what they need: the proxy forwards, deliveries are signed. */
export function unreadBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
}
