import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Admission, AuthGate } from '../auth/auth-gate';
import { accessOf, actionOf } from '../auth/route-access';
import { actorOfRequest } from './request-log';
import { pathnameOf } from './request-guard';

const admissions = new WeakMap<IncomingMessage, Admission>();

/** What the gate let through for this request (set by the hook before any route runs). */
export function admissionOf(request: IncomingMessage): Admission {
  const admission = admissions.get(request);
  if (!admission) throw new Error('The sign-in gate has not seen this request');
  return admission;
}

/**
 * The sign-in gate (auth/auth-gate.ts) before every route, on the route the router matched and
 * the access it states; refusals are answered there, on the raw response.
 */
export function signInGate(app: FastifyInstance, gate: AuthGate): void {
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
    admissions.set(request.raw, admission);
    actorOfRequest.set(request.raw, admission.actor);
  });
}
