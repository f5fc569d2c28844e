import type { FastifyInstance } from 'fastify';
import type { AuthGate } from '../auth/auth-gate';
import { AUTH_ROUTES } from '../auth/sign-in-routes';
import { rawReply } from './raw-reply';

/**
 * Sign-in, sign-out and the session's facts: open to anyone (each checks its own form token or
 * session token), answered on the raw response with their cookies and redirects; bodies are read
 * by the routes themselves, bounded (auth/form-body.ts).
 */
export async function authRoutes(app: FastifyInstance, deps: { gate: AuthGate }): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  for (const route of AUTH_ROUTES) {
    app.route({
      method: [...route.methods],
      url: route.url,
      config: { access: 'public' },
      handler: rawReply((request, reply) => deps.gate.serveAuth(request.raw, reply.raw, route.url)),
    });
  }
}
