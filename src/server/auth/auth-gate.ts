import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendEnvelope } from '../error-envelope';
import { roleMay, type Access } from './route-access';
import { AccountsStore } from './accounts-store';
import { DEFAULT_LIMITS } from './attempt-limiter';
import { sessionOf, type AuthContext } from './auth-context';
import { DEFAULT_USERS_DB, type AuthOptions } from './auth-options';
import { headerToken, sameToken } from './csrf';
import { exposureReasons, signInRequired } from './exposure';
import { HashingQueue } from './hashing-queue';
import { KnownDevices } from './known-device';
import { peekBody } from './peek-body';
import { bodyNeedsCheck, bodyRoleRefusal, type Actor } from './roles';
import {
  DEFAULT_IDLE_MINUTES,
  DEFAULT_MAX_HOURS,
  SessionBook,
  type ActiveSession,
  type SessionsEndedListener,
} from './session-book';
import { SessionWatch } from './session-watch';
import { signInHandlers, SIGN_IN_PATH, type SignInHandlers } from './sign-in-handlers';
import { SignInSlowing } from './sign-in-slowing';
import { requestUrl } from '../request-url';

/** How long a device keeps the account's data without reaching its server, unless set. */
const DEFAULT_KEEP_DAYS = 7;

/** An exposed server with no account: it must not start (anyone could use the key). */
export class NoAccountError extends Error {}

/** What the gate lets through: who is asking, and whether a page may be served to them. */
export interface Admission {
  actor: Actor | null;
  session: ActiveSession | null;
  /** False: a page request without the session it needs (send it to sign in). */
  pageAllowed: boolean;
}

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
  sendEnvelope(response, status, code, message);
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
 * The sign-in gate: each route says who may use it (route-access.ts); on an exposed server all
 * but public routes need a session; with a session, every write needs its CSRF token and role.
 */
export class AuthGate {
  readonly exposed: boolean;
  readonly reasons: string[];
  /** How long a device keeps the account's data without reaching the server (days). */
  readonly keepDays: number;
  private readonly context: AuthContext;
  private readonly purgeTimer: ReturnType<typeof setInterval>;
  private readonly watch: SessionWatch;
  private handlers: SignInHandlers | undefined;

  /** Throws NoAccountError when the server is exposed and has no account. */
  constructor(
    options: AuthOptions = {},
    server: { bindHost: string; allowedHosts?: readonly string[] | undefined },
  ) {
    const usersDb = options.usersDb ?? ':memory:';
    this.reasons = exposureReasons({ ...options, ...server });
    this.exposed = this.reasons.length > 0;
    this.keepDays = options.keepDays ?? DEFAULT_KEEP_DAYS;
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

  /**
   * Decides by the route's own `access` (see plugins/route-access.ts): answers a refusal and
   * returns null, or returns who is asking. `pathname` is the path as sent, for the editor's
   * listing-body check only. A route that states no access is refused to everyone.
   */
  async admit(
    request: IncomingMessage,
    response: ServerResponse,
    route: { access: Access | undefined; action?: string | undefined; pathname: string },
  ): Promise<Admission | null> {
    const { session } = sessionOf(this.context, request);
    const actor = session ? { name: session.name, role: session.role } : null;
    const needed = signInRequired(this.exposed, request);
    const { access } = route;
    if (access === 'public' || access === 'page') {
      return { actor, session, pageAllowed: !needed || !!session };
    }
    if (access === undefined) {
      return needed && !session
        ? refuse(request, response, 401, 'sign_in_required', 'Sign in to continue.')
        : refuse(request, response, 403, 'route_closed', 'This address is not open to anyone.');
    }
    if (needed && !session) {
      return refuse(request, response, 401, 'sign_in_required', 'Sign in to continue.');
    }
    if (session) {
      const method = request.method ?? 'GET';
      if (isWrite(method) && !sameToken(session.csrfToken, headerToken(request))) {
        return refuse(
          request,
          response,
          403,
          'csrf_failed',
          'The request lacks this session’s token.',
        );
      }
      if (!roleMay(session.role, access)) {
        const words =
          session.role === 'viewer' && isWrite(method)
            ? 'Your role (viewer) can only read.'
            : `Your role (${session.role}) cannot ${route.action ?? 'use this'}; ask an owner.`;
        return refuse(request, response, 403, 'role_forbidden', words);
      }
      if (bodyNeedsCheck(session.role, method, route.pathname)) {
        // Read whole and put back: the proxy reads the same body after the gate.
        const body = await peekBody(request, MAX_WRITE_BODY_BYTES);
        if (!body) {
          return refuse(request, response, 413, 'body_too_large', 'The request body is too large.');
        }
        const byBody = bodyRoleRefusal(session.role, method, route.pathname, body);
        if (byBody) return refuse(request, response, 403, 'role_forbidden', byBody);
      }
    }
    return { actor, session, pageAllowed: true };
  }

  /** The sign-in routes' handlers (see AUTH_ROUTES), on the raw response. */
  get signIn(): SignInHandlers {
    return (this.handlers ??= signInHandlers(this.context));
  }

  /** A page request without its session: to the sign-in page, back here afterwards. */
  toSignIn(request: IncomingMessage, response: ServerResponse): void {
    const url = requestUrl(request.url);
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
