import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { refuse } from '../error-envelope';
import { pathnameOf } from '../request-url';
import { requestUrl } from '../request-url';
import { AccountsStore } from './accounts-store';
import { DEFAULT_USERS_DB, type AuthOptions } from './auth-options';
import { HashingQueue } from './passwords';
import { peekBody } from './peek-body';
import {
  exposureReasons,
  headerToken,
  overTls,
  readCookie,
  sameToken,
  sessionCookieName,
  signInRequired,
  type TransportSettings,
} from './request-facts';
import { accessOf, bodyNeedsCheck, bodyRoleRefusal, isWrite, roleMay, type Actor } from './roles';
import { SessionBook, type ActiveSession, type SessionsEndedListener } from './session-book';
import { DEFAULT_LIMITS, KnownDevices, SignInSlowing } from './sign-in-slowing';

export const SIGN_IN_PATH = '/sign-in';

/** An exposed server with no account: it must not start (anyone could use the key). */
export class NoAccountError extends Error {}

/** Who is asking, and whether a page may be served to them (false: send them to sign in). */
export interface Admission {
  actor: Actor | null;
  session: ActiveSession | null;
  pageAllowed: boolean;
}

const PURGE_EVERY_MS = 10 * 60_000;
/** As large a body as the proxy forwards: an editor's listing write is read whole to check it. */
const MAX_WRITE_BODY_BYTES = 1_048_576;

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
  /** Failed sign-ins, counted apart for known devices, known addresses and everyone else. */
  readonly slowing: SignInSlowing;
  readonly devices: KnownDevices;
  readonly hashing = new HashingQueue();
  readonly transport: TransportSettings;
  private readonly purgeTimer: ReturnType<typeof setInterval>;

  /** Throws NoAccountError when the server is exposed and has no account. */
  constructor(
    options: AuthOptions = {},
    server: { bindHost: string; allowedHosts?: readonly string[] | undefined },
  ) {
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
    this.transport = { publicUrl: options.publicUrl, trustProxy: options.trustProxy };
    this.book.purge();
    this.purgeTimer = setInterval(() => this.book.purge(), PURGE_EVERY_MS);
    this.purgeTimer.unref?.();
  }

  /** The request's session cookie (named by the request's TLS) and the live session it opens. */
  sessionOf(request: IncomingMessage) {
    const secure = overTls(request, this.transport);
    const cookie = readCookie(request, sessionCookieName(secure));
    return { secure, cookie, session: this.book.find(cookie) };
  }

  /** Decides by the matched route's `access`: who is asking, or null once it answered a refusal. */
  async admit(request: FastifyRequest, reply: FastifyReply): Promise<Admission | null> {
    const { raw, method } = request;
    const no = (status: number, code: string, message: string) => {
      // A refusal sent before the body is read closes the connection: no request follows it.
      if (isWrite(method)) reply.header('connection', 'close');
      refuse(reply, status, code, message);
      return null;
    };
    const { session } = this.sessionOf(raw);
    const actor = session && { name: session.name, role: session.role };
    const needed = signInRequired(this.exposed, raw);
    const access = accessOf(request);
    if (access === 'public' || access === 'page') {
      return { actor, session, pageAllowed: !needed || !!session };
    }
    if (needed && !session) return no(401, 'sign_in_required', 'Sign in to continue.');
    if (access === undefined) {
      return no(403, 'route_closed', 'This address is not open to anyone.');
    }
    if (!session) return { actor, session, pageAllowed: true };
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
    const pathname = pathnameOf(request);
    if (bodyNeedsCheck(session.role, method, pathname)) {
      // Read whole and put back: the proxy reads the same body after the gate.
      const body = await peekBody(raw, MAX_WRITE_BODY_BYTES);
      if (!body) return no(413, 'body_too_large', 'The request body is too large.');
      const byBody = bodyRoleRefusal(session.role, method, pathname, body);
      if (byBody) return no(403, 'role_forbidden', byBody);
    }
    return { actor, session, pageAllowed: true };
  }

  /** A page request without its session: to the sign-in page, back here afterwards. */
  toSignIn(request: IncomingMessage, response: ServerResponse): void {
    const url = requestUrl(request.url);
    const next = `${url.pathname}${url.search}`;
    const query = new URLSearchParams(next === '/' ? {} : { next });
    if (this.sessionOf(request).cookie) query.set('ended', '1');
    const search = query.toString();
    response.writeHead(303, {
      location: `${SIGN_IN_PATH}${search ? `?${search}` : ''}`,
      'cache-control': 'no-store',
    });
    response.end();
  }

  /** Whether a websocket upgrade (Vite's HMR) may go on: with a session when one is needed. */
  allowsUpgrade(request: IncomingMessage): boolean {
    return !signInRequired(this.exposed, request) || !!this.sessionOf(request).session;
  }

  /** Told whenever sessions end here (sign-out, everywhere, expiry); returns the way to stop. */
  onSessionsEnded(listener: SessionsEndedListener): () => void {
    return this.book.onSessionsEnded(listener);
  }

  /** Whether the session is still open: one indexed read, cheap enough for every pushed event. */
  sessionAlive(idHash: string): boolean {
    return this.book.alive(idHash);
  }

  close(): void {
    clearInterval(this.purgeTimer);
    this.store.close();
  }
}
