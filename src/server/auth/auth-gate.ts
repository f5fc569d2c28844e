import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_PREFIX, sendJson } from '../api-proxy';
import { WEBHOOK_PATH } from '../hub/webhook-receiver';
import { AccountsStore } from './accounts-store';
import { AttemptLimiter, DEFAULT_LIMITS } from './attempt-limiter';
import { sessionOf, type AuthContext } from './auth-context';
import { DEFAULT_USERS_DB, type AuthOptions } from './auth-options';
import { headerToken, sameToken } from './csrf';
import { exposureReasons, signInRequired } from './exposure';
import { roleRefusal, type Actor } from './roles';
import {
  DEFAULT_IDLE_MINUTES,
  DEFAULT_MAX_HOURS,
  SessionBook,
  type ActiveSession,
} from './session-book';
import { handleAuthRoute, isAuthRoute, SIGN_IN_PATH } from './sign-in-routes';

/** An exposed server with no account: it must not start (anyone could use the key). */
export class NoAccountError extends Error {}

/** What the gate lets through: who is asking, and whether a page may be served to them. */
export interface Admission {
  actor: Actor | null;
  session: ActiveSession | null;
  /** False: a page request without the session it needs (send it to sign in). */
  pageAllowed: boolean;
}

/** Paths open to anyone: the marketplace's deliveries (signed) and the health check. */
const OPEN_PATHS = new Set([WEBHOOK_PATH, '/healthz']);
const PURGE_EVERY_MS = 10 * 60_000;

const isWrite = (method: string | undefined) => method !== 'GET' && method !== 'HEAD';

/**
 * A refusal sent before the body is read closes the connection, so no next request follows an
 * unread body.
 */
function refuse(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
): null {
  if (isWrite(request.method)) response.setHeader('connection', 'close');
  sendJson(response, status, code, message);
  return null;
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
 * The sign-in gate: on an exposed server everything needs a session but the webhook door,
 * `/healthz`, sign-in and assets; with a session, every write needs its CSRF token and role.
 */
export class AuthGate {
  readonly exposed: boolean;
  readonly reasons: string[];
  private readonly context: AuthContext;
  private readonly purgeTimer: ReturnType<typeof setInterval>;

  /** Throws NoAccountError when the server is exposed and has no account. */
  constructor(
    options: AuthOptions = {},
    server: { bindHost: string; allowedHosts?: readonly string[] | undefined },
  ) {
    const usersDb = options.usersDb ?? ':memory:';
    this.reasons = exposureReasons({ ...options, ...server });
    this.exposed = this.reasons.length > 0;
    const store = new AccountsStore(usersDb);
    if (this.exposed && store.countUsers() === 0) {
      store.close();
      throw new NoAccountError(noStartMessage(this.reasons, usersDb));
    }
    const now = options.now ?? Date.now;
    const limits = { ...DEFAULT_LIMITS, ...options.limits, now };
    this.context = {
      store,
      book: new SessionBook(store, {
        idleMinutes: options.sessionIdleMinutes ?? DEFAULT_IDLE_MINUTES,
        maxHours: options.sessionMaxHours ?? DEFAULT_MAX_HOURS,
        now,
      }),
      byAccount: new AttemptLimiter(limits),
      byAddress: new AttemptLimiter(limits),
      transport: { publicUrl: options.publicUrl, trustProxy: options.trustProxy },
      exposed: this.exposed,
    };
    this.context.book.purge();
    this.purgeTimer = setInterval(() => this.context.book.purge(), PURGE_EVERY_MS);
    this.purgeTimer.unref?.();
  }

  /** Answers the request (sign-in routes, refusals) and returns null, or returns who is asking. */
  async admit(
    request: IncomingMessage,
    response: ServerResponse,
    pathname: string,
  ): Promise<Admission | null> {
    if (isAuthRoute(pathname)) {
      await handleAuthRoute(this.context, request, response, pathname);
      return null;
    }
    const { session } = sessionOf(this.context, request);
    const actor = session ? { name: session.name, role: session.role } : null;
    const needed = signInRequired(this.exposed, request);
    if (OPEN_PATHS.has(pathname)) return { actor, session, pageAllowed: !needed || !!session };
    const api = pathname.startsWith(API_PREFIX) || pathname === '/api';
    const hub = pathname.startsWith('/hub/');
    if (!api && !hub) return { actor, session, pageAllowed: !needed || !!session };

    if (needed && !session) {
      return refuse(request, response, 401, 'sign_in_required', 'Sign in to continue.');
    }
    if (session && isWrite(request.method)) {
      if (!sameToken(session.csrfToken, headerToken(request))) {
        return refuse(
          request,
          response,
          403,
          'csrf_failed',
          'The request lacks this session’s token.',
        );
      }
      const refusal = roleRefusal(session.role, request.method ?? 'GET');
      if (refusal) return refuse(request, response, 403, 'role_forbidden', refusal);
    }
    return { actor, session, pageAllowed: true };
  }

  /** A page request without its session: to the sign-in page, back here afterwards. */
  toSignIn(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const { cookie } = sessionOf(this.context, request);
    const next = `${url.pathname}${url.search}`;
    const query = new URLSearchParams(next === '/' ? {} : { next });
    if (cookie) query.set('ended', '1');
    const search = query.toString();
    response.writeHead(303, {
      location: `${SIGN_IN_PATH}${search ? `?${search}` : ''}`,
      'cache-control': 'no-store',
    });
    response.end();
  }

  /** Whether a websocket upgrade (Vite's HMR) may go on: with a session when one is needed. */
  allowsUpgrade(request: IncomingMessage): boolean {
    return !signInRequired(this.exposed, request) || !!sessionOf(this.context, request).session;
  }

  close(): void {
    clearInterval(this.purgeTimer);
    this.context.store.close();
  }
}
