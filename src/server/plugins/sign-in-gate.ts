import type { FastifyInstance } from 'fastify';
import type { Admission, AuthGate } from '../auth/auth-gate';
import { accessOf, actionOf } from '../auth/route-access';
import { pathnameOf } from './request-guard';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * What the sign-in gate let through: set by its hook before any route, page or dev asset
     * runs (a request it refused never reaches one; the request log reads it as maybe unset).
     */
    admission: Admission;
  }
}

/**
 * The sign-in gate (auth/auth-gate.ts) before every route, on the route the router matched and
 * the access it states; refusals are answered there, on the raw response.
 */
export function signInGate(app: FastifyInstance, gate: AuthGate): void {
  app.decorateRequest<Admission | null>('admission', null);
  app.addHook('onRequest', async (request, reply) => {
    const admission = await gate.admit(request.raw, reply.raw, {
      access: accessOf(request),
      action: actionOf(request),
      pathname: pathnameOf(request),
    });
    if (!admission) {
      reply.hijack();
      return;
    }
    request.admission = admission;
  });
}
