import type { FastifyInstance } from 'fastify';
import type { AuthGate } from '../auth/auth-gate';
import { AUTH_ROUTES } from '../auth/sign-in-handlers';
import { rawReply } from '../plugins/raw-reply';
import { unreadBodies } from '../plugins/unread-bodies';

/**
 * Sign-in's form, sign-in, sign-out and the session's facts: open to anyone (each checks its own
 * form token or session token), answered on the raw response with their cookies and redirects;
 * bodies are read by the handlers themselves, bounded (auth/form-body.ts).
 */
export async function signInRoutes(app: FastifyInstance, deps: { gate: AuthGate }) {
  unreadBodies(app);
  for (const route of AUTH_ROUTES) {
    const serve = deps.gate.signIn[route.serve];
    app.route({
      method: [...route.methods],
      url: route.url,
      // HEAD is stated where it is served.
      exposeHeadRoute: false,
      config: { access: 'public' },
      handler: rawReply((request, reply) => serve(request.raw, reply.raw)),
    });
  }
}
