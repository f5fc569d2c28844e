import type { IncomingMessage, ServerResponse } from 'node:http';
import { isApiPath, sendJson } from '../api-proxy';
import { WEBHOOK_PATH } from '../hub/webhook-receiver';
import { AccountsStore } from './accounts-store';
import { DEFAULT_LIMITS } from './attempt-limiter';
import { sessionOf, type AuthContext } from './auth-context';
import { DEFAULT_USERS_DB, type AuthOptions } from './auth-options';
import { headerToken, sameToken } from './csrf';
import { exposureReasons, signInRequired } from './exposure';
import { HashingQueue } from './hashing-queue';
import { KnownDevices } from './known-device';
import { peekBody } from './peek-body';
import { bodyNeedsCheck, bodyRoleRefusal, roleRefusal, type Actor } from './roles';
import {
  DEFAULT_IDLE_MINUTES,
  DEFAULT_MAX_HOURS,
  SessionBook,
  type ActiveSession,
  type SessionsEndedListener,
} from './session-book';
import { SessionWatch } from './session-watch';
import { handleAuthRoute, isAuthRoute, SIGN_IN_PATH } from './sign-in-routes';
import { SignInSlowing } from './sign-in-slowing';

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
const DEFAULT_SESSION_CHECK_MS = 2_000;
/** As large a body as the proxy forwards: an editor's listing write is read whole to check it. */
const MAX_WRITE_BODY_BYTES = 1_048_576;

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
  private readonly watch: SessionWatch;

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
      slowing: new SignInSlowing(limits),
      devices: new KnownDevices(store.secret('device-cookies')),
      hashing: new HashingQueue(options.hashing),
      transport: { publicUrl: options.publicUrl, trustProxy: options.trustProxy },
      exposed: this.exposed,
    };
    this.watch = new SessionWatch(
      this.context.book,
      options.sessionCheckMs ?? DEFAULT_SESSION_CHECK_MS,
    );
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
    const api = isApiPath(pathname);
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
      const method = request.method ?? 'GET';
      const refusal = roleRefusal(session.role, method);
      if (refusal) return refuse(request, response, 403, 'role_forbidden', refusal);
      if (bodyNeedsCheck(session.role, method, pathname)) {
        // Read whole and put back: the proxy reads the same body after the gate.
        const body = await peekBody(request, MAX_WRITE_BODY_BYTES);
        if (!body) {
          return refuse(request, response, 413, 'body_too_large', 'The request body is too large.');
        }
        const byBody = bodyRoleRefusal(session.role, method, pathname, body);
        if (byBody) return refuse(request, response, 403, 'role_forbidden', byBody);
      }
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

  /**
   * Calls `listener` whenever sessions end: sign-out (its id hash), sign out everywhere
   * (`'all-of-user'`), expiry, and for watched sessions an end made by another process
   * (`npm run users -- remove` or `passwd`). Returns the way to stop listening.
   */
  onSessionsEnded(listener: SessionsEndedListener): () => void {
    return this.context.book.onSessionsEnded(listener);
  }

  /**
   * Calls `onEnded` once when this session (`Admission.session.idHash`) ends, however it ends;
   * ends made elsewhere are found within the check interval. Returns the way to stop watching.
   */
  watchSession(idHash: string, userName: string, onEnded: () => void): () => void {
    return this.watch.watch(idHash, userName, onEnded);
  }

  /** Whether the session is still open: one indexed read, cheap enough for every pushed event. */
  sessionAlive(idHash: string): boolean {
    return this.context.book.alive(idHash);
  }

  close(): void {
    clearInterval(this.purgeTimer);
    this.watch.close();
    this.context.store.close();
  }
}
