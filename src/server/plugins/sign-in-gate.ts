import type { FastifyInstance } from 'fastify';
import type { Admission, AuthGate } from '../auth/auth-gate';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set before any route, page or dev asset runs; a refused request never reaches one. */
    admission: Admission;
  }
}

/** The sign-in gate (auth/auth-gate.ts) before every route, on the route the router matched. */
export function signInGate(app: FastifyInstance, gate: AuthGate): void {
  app.decorateRequest<Admission | null>('admission', null);
  app.addHook('onRequest', async (request, reply) => {
    const admission = await gate.admit(request, reply);
    if (!admission) return reply;
    request.admission = admission;
  });
}
