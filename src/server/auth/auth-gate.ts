import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { refuse } from '../error-envelope';
import { headerOf as header, pathnameOf, requestUrl } from '../request-url';
import {
  AccountsStore,
  DEFAULT_USERS_DB,
  sameToken,
  SessionBook,
  type ActiveSession,
} from './accounts-store';
import { HashingQueue } from './passwords';
import { accessOf, bodyRoleRefusal, isWrite, roleMay, type Actor } from './roles';
import { DEFAULT_LIMITS, KnownDevices, SignInSlowing } from './sign-in-slowing';

/** Where the server listens; `allowedHosts`: `SLABDESK_ALLOWED_HOSTS` and `--host NAME`. */
type Listening = { bindHost: string; allowedHosts?: readonly string[] | undefined };

const COOKIE_SHAPE = /^[A-Za-z0-9_-]{1,128}$/;

/** One of our cookies (parsed by @fastify/cookie); one of another shape is no cookie. */
export const cookieOf = (cookies: Record<string, string | undefined>, name: string) => {
  const value = cookies[name];
  return value !== undefined && COOKIE_SHAPE.test(value) ? value : undefined;
};

/** Cookie names: `__Host-` over TLS (Secure, this host only, Path=/), else plain. */
const cookieName = (name: string) => (secure: boolean) =>
  secure ? `__Host-slabdesk_${name}` : `slabdesk_${name}`;
export const sessionCookieName = cookieName('session');
/** The sign-in form's own token (double submit: cookie and hidden field), before any session. */
export const formCookieName = cookieName('signin');
export const deviceCookieName = cookieName('device');

/** The header the page sends its session's token in (forms: the hidden field `csrf`). */
export const headerToken = (request: IncomingMessage) => header(request, 'x-slabdesk-csrf');

/** The socket's address, or behind a trusted proxy the rightmost `X-Forwarded-For` hop not local. */
export function clientAddress(request: IncomingMessage, settings: AuthOptions): string {
  const socket = request.socket.remoteAddress ?? 'unknown';
  if (!settings.trustProxy) return socket;
  const hops = (header(request, 'x-forwarded-for') ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => isIP(hop) !== 0);
  return hops.findLast((hop) => !isLoopbackName(hop)) ?? hops[0] ?? socket;
}

/** Whether the browser reached us over TLS (cookies are then Secure, under a `__Host-` name). */
export function overTls(request: IncomingMessage, settings: AuthOptions): boolean {
  if (settings.publicUrl?.toLowerCase().startsWith('https:')) return true;
  if ('encrypted' in request.socket && request.socket.encrypted === true) return true;
  const proto = header(request, 'x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return settings.trustProxy === true && proto === 'https';
}

/** A name or address of this machine only (`localhost`, 127.0.0.0/8, ::1). */
const isLoopbackName = (name: string): boolean =>
  /^(localhost|.*\.localhost|(::ffff:)?127(\.\d{1,3}){3}|::1)$/s.test(
    name
      .trim()
      .toLowerCase()
      .replace(/^\[|\]$/g, ''),
  );

/** A `Host`-style entry without its port: `name`, `name:port`, `[v6]:port`. */
function hostOnly(entry: string): string {
  const trimmed = entry.trim();
  if (trimmed.startsWith('[')) return trimmed.slice(0, trimmed.indexOf(']') + 1);
  return trimmed.split(':').length === 2 ? trimmed.slice(0, trimmed.indexOf(':')) : trimmed;
}

/** Why the server counts as exposed (empty: it is not). */
export function exposureReasons(settings: AuthOptions & Listening): string[] {
  const outside = (settings.allowedHosts ?? [])
    .map(hostOnly)
    .filter((name) => name && !isLoopbackName(name));
  return [
    !isLoopbackName(settings.bindHost) && `bound to ${settings.bindHost}`,
    outside.length > 0 && `answers to ${outside.join(', ')}`,
    !!settings.publicUrl && 'SLABDESK_PUBLIC_URL is set',
    !!settings.trustProxy && 'SLABDESK_TRUST_PROXY=1',
    settings.webhookPort !== undefined &&
      settings.webhookPort !== '' &&
      'SLABDESK_WEBHOOK_PORT is set',
    !!settings.requireSignIn && 'SLABDESK_REQUIRE_SIGN_IN=1',
  ].filter((reason): reason is string => typeof reason === 'string');
}

/** Headers a reverse proxy or tunnel adds: a request carrying one came from outside. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip', 'cf-connecting-ip'];

/** Always when exposed; locally, when forwarded (a tunnel to a loopback server brings the outside in). */
export const signInRequired = (exposed: boolean, request: IncomingMessage): boolean =>
  exposed || FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);

/** How sign-in is set up (`startAppServer`'s `auth`; config/settings.ts reads the env). */
export interface AuthOptions {
  /** `SLABDESK_PUBLIC_URL` (https: the browser reaches us over TLS) and `SLABDESK_TRUST_PROXY`. */
  publicUrl?: string | undefined;
  trustProxy?: boolean | undefined;
  /** `SLABDESK_USERS_DB`: the accounts and sessions (`:memory:` ok). */
  usersDb?: string;
  webhookPort?: number | string | undefined;
  requireSignIn?: boolean | undefined;
  /** `SLABDESK_SESSION_IDLE_MINUTES` (720) and `SLABDESK_SESSION_MAX_HOURS` (168). */
  sessionIdleMinutes?: number | undefined;
  sessionMaxHours?: number | undefined;
  /** `SLABDESK_KEEP_DAYS` (7): a device this long without the server clears the account's data. */
  keepDays?: number | undefined;
  /** The clock for sessions and attempt limits (epoch ms); tests move it. */
  now?: () => number;
}

export const SIGN_IN_PATH = '/sign-in';

/** An exposed server with no account: it must not start (anyone could use the key). */
export class NoAccountError extends Error {}

/** Who is asking, their session cookie (named by the request's TLS), and whether a page may be served. */
export interface Admission {
  actor: Actor | null;
  session: ActiveSession | null;
  secure: boolean;
  cookie: string | undefined;
  pageAllowed: boolean;
}

const PURGE_EVERY_MS = 10 * 60_000;

/** A refusal of the gate; a write's closes the connection (it may come before its body is read). */
function refuseAt(reply: FastifyReply, status: number, code: string, message: string) {
  if (isWrite(reply.request.method)) reply.header('connection', 'close');
  return refuse(reply, status, code, message);
}

function noStartMessage(reasons: string[], usersDb: string): string {
  return [
    `Slabdesk will not start: other machines can reach it (${reasons.join('; ')}), so it needs`,
    `signed-in accounts, and ${usersDb === ':memory:' ? 'there are none' : `${usersDb} has none`}.`,
    'Add the first owner (the password is read from the terminal), then start again:',
    '',
    '  npm run users -- add NAME --role owner',
    '',
    ...(usersDb === DEFAULT_USERS_DB || usersDb === ':memory:'
      ? []
      : [`(with SLABDESK_USERS_DB=${usersDb} set for it too)`, '']),
  ].join('\n');
}

/**
 * The sign-in gate and its parts: each route says who may use it (roles.ts); on an exposed server
 * all but public routes need a session; with a session, every write needs its CSRF token and role.
 */
export class AuthGate {
  readonly exposed: boolean;
  readonly reasons: string[];
  readonly keepDays: number;
  readonly store: AccountsStore;
  readonly book: SessionBook;
  readonly slowing: SignInSlowing;
  readonly devices: KnownDevices;
  readonly hashing = new HashingQueue();
  readonly transport: AuthOptions;
  private readonly purgeTimer: ReturnType<typeof setInterval>;

  /** Throws NoAccountError when the server is exposed and has no account. */
  constructor(options: AuthOptions = {}, server: Listening) {
    const usersDb = options.usersDb ?? ':memory:';
    this.reasons = exposureReasons({ ...options, ...server });
    this.exposed = this.reasons.length > 0;
    this.keepDays = options.keepDays ?? 7;
    this.store = new AccountsStore(usersDb);
    if (this.exposed && this.store.countUsers() === 0) {
      this.store.close();
      throw new NoAccountError(noStartMessage(this.reasons, usersDb));
    }
    const now = options.now ?? Date.now;
    this.book = new SessionBook(this.store, {
      idleMinutes: options.sessionIdleMinutes ?? 12 * 60,
      maxHours: options.sessionMaxHours ?? 7 * 24,
      now,
    });
    this.slowing = new SignInSlowing({ ...DEFAULT_LIMITS, now });
    this.devices = new KnownDevices(this.store.secret('device-cookies'));
    this.transport = options;
    this.book.purge();
    this.purgeTimer = setInterval(() => this.book.purge(), PURGE_EVERY_MS);
    this.purgeTimer.unref?.();
  }

  /** Decides by the matched route's `access`: who is asking, or null once it answered a refusal. */
  admit(request: FastifyRequest, reply: FastifyReply): Admission | null {
    const { raw, method } = request;
    const no = (status: number, code: string, message: string) => {
      refuseAt(reply, status, code, message);
      return null;
    };
    const secure = overTls(raw, this.transport);
    const cookie = cookieOf(request.cookies, sessionCookieName(secure));
    const session = this.book.find(cookie);
    const actor = session && { name: session.name, role: session.role };
    const admitted = (pageAllowed: boolean) => ({ actor, session, secure, cookie, pageAllowed });
    const needed = signInRequired(this.exposed, raw);
    const access = accessOf(request);
    if (access === 'public' || access === 'page') return admitted(!needed || !!session);
    if (needed && !session) return no(401, 'sign_in_required', 'Sign in to continue.');
    if (access === undefined) return no(403, 'route_closed', 'This address is not open to anyone.');
    if (!session) return admitted(true);
    if (isWrite(method) && !sameToken(session.csrfToken, headerToken(raw))) {
      return no(403, 'csrf_failed', 'The request lacks this session’s token.');
    }
    if (!roleMay(session.role, access)) {
      const action = request.routeOptions.config.action ?? 'use this';
      const words =
        session.role === 'viewer' && isWrite(method)
          ? 'Your role (viewer) can only read.'
          : `Your role (${session.role}) cannot ${action}; ask an owner.`;
      return no(403, 'role_forbidden', words);
    }
    return admitted(true);
  }

  /** A write whose body its role may not send (read whole by the route's parser, in its bodyLimit). */
  refuseBody(request: FastifyRequest, reply: FastifyReply) {
    const { role } = request.admission.session ?? {};
    const byBody = role && bodyRoleRefusal(role, request.method, pathnameOf(request), request.body);
    return byBody ? refuseAt(reply, 403, 'role_forbidden', byBody) : undefined;
  }

  /** A page request without its session: to the sign-in page, back here afterwards. */
  toSignIn(request: FastifyRequest, reply: FastifyReply) {
    const url = requestUrl(request.url);
    const next = `${url.pathname}${url.search}`;
    const query = new URLSearchParams(next === '/' ? {} : { next });
    if (request.admission.cookie) query.set('ended', '1');
    const search = query.toString();
    return reply
      .header('cache-control', 'no-store')
      .redirect(`${SIGN_IN_PATH}${search ? `?${search}` : ''}`, 303);
  }

  /** Whether a websocket upgrade (Vite's HMR) may go on: with a session when one is needed. */
  allowsUpgrade(request: IncomingMessage): boolean {
    if (!signInRequired(this.exposed, request)) return true;
    const cookies = fastifyCookie.parse(request.headers.cookie ?? '');
    return !!this.book.find(cookieOf(cookies, sessionCookieName(overTls(request, this.transport))));
  }

  close(): void {
    clearInterval(this.purgeTimer);
    this.store.close();
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set before any route, page or dev asset runs; a refused request never reaches one. */
    admission: Admission;
  }
}

/** The gate before every route, on the route the router matched; cookies parsed before it. */
export async function signInGate(app: FastifyInstance, gate: AuthGate): Promise<void> {
  await app.register(fastifyCookie);
  app.decorateRequest<Admission | null>('admission', null);
  app.addHook('onRequest', async (request, reply) => {
    const admission = gate.admit(request, reply);
    if (!admission) return reply;
    request.admission = admission;
  });
  app.addHook('preHandler', async (request, reply) => gate.refuseBody(request, reply));
}
