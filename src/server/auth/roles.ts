import type { FastifyRequest } from 'fastify';
import { parseJsonBody } from '../../shared/json-body';
import { safeDecode } from '../../shared/safe-decode';

/** Who may do what: the three roles, least last; each route states which it needs. */
export const ROLES = ['owner', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** The person behind a request, for the activity log; null when sign-in is off ("This computer"). */
export interface Actor {
  name: string;
  role: Role;
}

/** The name the log and the ledgers give a write made with sign-in off. */
export const THIS_COMPUTER = 'This computer';
/** Who is writing: the signed-in account, or "This computer" with sign-in off. */
export const actorName = (request: FastifyRequest) =>
  request.admission.actor?.name ?? THIS_COMPUTER;

export const isRole = (value: unknown): value is Role =>
  typeof value === 'string' && (ROLES as readonly string[]).includes(value);

/**
 * Who may use a route, stated in its own definition (`config: { access }`), denied by default:
 * `public` anyone; `page` a session where one is needed, else a redirect to sign in; a role: a
 * session of that role or above where one is needed (sign-in off: the one person here is owner).
 */
export type Access = 'public' | 'page' | Role;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may use this route; none stated: nobody. */
    access?: Access;
    /** What a refused role could not do, for its message ("create rules"). */
    action?: string;
  }
}

/** The route the router matched decides, so every spelling of a path gets its route's answer. */
export const accessOf = (request: FastifyRequest): Access | undefined =>
  // The not-found handler is the app's page.
  request.is404 ? 'page' : request.routeOptions.config.access;

/** ROLES runs from most to least: a role may what any role after it may. */
export const roleMay = (role: Role, access: Access): boolean =>
  access === 'public' || access === 'page' || ROLES.indexOf(role) <= ROLES.indexOf(access);

export const isWrite = (method: string | undefined) => method !== 'GET' && method !== 'HEAD';

/** Why `role` may not send this body, or null: an editor may not take a listing off sale. */
export function bodyRoleRefusal(role: Role, method: string, pathname: string, body: unknown) {
  if (role !== 'editor' || !isWrite(method) || method === 'DELETE' || body === undefined) {
    return null;
  }
  // A listing's paths (and their `products` aliases), after decoding, in any letter case.
  const path = (safeDecode(pathname) ?? pathname).toLowerCase();
  if (!/\/(listings|products)(\/|\.json|$)/.test(path)) return null;
  // The proxy's bytes as sent; a parsed body (another route's) as the JSON it was.
  const bytes = Buffer.isBuffer(body) || typeof body === 'string' ? body : JSON.stringify(body);
  return setsInactiveStatus(bytes)
    ? 'Your role (editor) cannot deactivate listings; ask an owner.'
    : null;
}

/** In any letter case too: a lenient reader upstream must not see a status this check missed. */
const isStatusKey = (key: string) => ['status', 'svc_status'].includes(key.toLowerCase());

function statusValues(value: unknown, found: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const item of value) statusValues(item, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (isStatusKey(key)) found.push(inner);
      statusValues(inner, found);
    }
  }
  return found;
}

/** The status keys written in the text: each JSON string followed by a colon is a key. */
function statusKeysWritten(text: string): number {
  let count = 0;
  for (const match of text.matchAll(/"(?:[^"\\]|\\.)*"\s*:/g)) {
    const token = match[0].slice(0, match[0].lastIndexOf('"') + 1);
    try {
      if (isStatusKey(JSON.parse(token) as string)) count += 1;
    } catch {
      count += 1;
    }
  }
  return count;
}

/**
 * Whether a listing write takes the listing off sale: any `status`/`svc_status` but `active`, at
 * any depth (the marketplace reads it in every body form), or a status key written more often
 * than the parsed body shows (a duplicate key, read one way here and maybe another upstream).
 */
export function setsInactiveStatus(body: Buffer | string): boolean {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  const verdict = parseJsonBody(text);
  // Too deep to walk cannot be vouched for; one the marketplace cannot parse changes nothing.
  if (verdict.kind === 'too_deep') return true;
  if (verdict.kind !== 'json') return false;
  const values = statusValues(verdict.value);
  return values.some((value) => value !== 'active') || statusKeysWritten(text) !== values.length;
}
