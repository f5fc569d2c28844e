import type { FastifyInstance } from 'fastify';

/**
 * A plugin's routes leave bodies unread, whatever their type: they answer on the raw response
 * and read (bounded) what they need themselves: the proxy forwards, the webhook receiver checks
 * a signature over the exact bytes, sign-in reads its form.
 */
export function unreadBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
}
