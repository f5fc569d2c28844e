import type { FastifyRequest } from 'fastify';
import type { Role } from './roles';

/**
 * Who may use a route, stated in its own definition (`config: { access }`), denied by default:
 * - `public`: anyone (the health check, sign-in, the marketplace's signed deliveries, build files);
 * - `page`: the app's pages: a session where one is needed, else a redirect to sign in;
 * - a role: a session of that role or above where one is needed (with sign-in off, the one
 *   person at this computer is the owner).
 * A route that states nothing answers 401 or 403. The decision is taken on the route the router
 * matched, so every spelling of a path (`/%68ub/rules`) gets its route's answer.
 */
export type Access = 'public' | 'page' | Role;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may use this route (see route-access.ts); none stated: nobody. */
    access?: Access;
    /** What a refused role could not do, for its message ("create rules"). */
    action?: string;
  }
}

/** The roles, least first: a role may use a route of its own rank or below. */
export const ROLE_RANK: Record<Role, number> = { viewer: 0, editor: 1, owner: 2 };

/** The not-found handler is the app's page, so a path no route took is a page's. */
export function accessOf(request: FastifyRequest): Access | undefined {
  if (request.is404) return 'page';
  return request.routeOptions.config.access;
}

/** What a refused role could not do, as its route says. */
export function actionOf(request: FastifyRequest): string | undefined {
  return request.is404 ? undefined : request.routeOptions.config.action;
}

/** Whether a role may use a route of `access` (public and page routes: anyone). */
export function roleMay(role: Role, access: Access): boolean {
  if (access === 'public' || access === 'page') return true;
  return ROLE_RANK[role] >= ROLE_RANK[access];
}
