import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendEnvelope } from '../error-envelope';
import { contentSecurityPolicy, inlineStyleHashes, setPageHeaders } from '../security-headers';
import { NAME_PATTERN } from './accounts-store';
import { sessionOf, type AuthContext } from './auth-context';
import { formCookieName, readCookie, sessionCookieName, setCookie } from './cookies';
import { headerToken, newCsrfToken, sameToken } from './csrf';
import { readForm } from './form-body';
import { DEVICE_COOKIE_MAX_AGE_SECONDS, deviceCookieName } from './known-device';
import { checkPassword } from './password-check';
import { clientAddress } from './request-facts';
import { hashSessionId } from './session-book';
import { safeNext } from './safe-next';
import { signInPage, type SignInPageFacts } from './sign-in-page';
import { signInRequired } from './exposure';
import { requestUrl } from '../request-url';

export const SIGN_IN_PATH = '/sign-in';
export const AUTH_PATHS = {
  signOut: '/auth/sign-out',
  signOutEverywhere: '/auth/sign-out-everywhere',
  session: '/auth/session',
} as const;

/** The one message for a wrong name or a wrong password: it never says which. */
export const WRONG_CREDENTIALS = 'That name and password do not match.';
/** How long a sign-in turned away for a busy server should wait. */
const BUSY_RETRY_SECONDS = 5;

/** The sign-in routes: each path and methods, and the handler that serves them (SignInHandlers). */
export const AUTH_ROUTES = [
  { url: SIGN_IN_PATH, methods: ['GET', 'HEAD'], serve: 'form' },
  { url: SIGN_IN_PATH, methods: ['POST'], serve: 'signIn' },
  { url: AUTH_PATHS.session, methods: ['GET', 'HEAD'], serve: 'session' },
  { url: AUTH_PATHS.signOut, methods: ['POST'], serve: 'signOut' },
  { url: AUTH_PATHS.signOutEverywhere, methods: ['POST'], serve: 'signOutEverywhere' },
] as const;

type Serve = (request: IncomingMessage, response: ServerResponse) => Promise<void>;
export type SignInHandlers = Record<(typeof AUTH_ROUTES)[number]['serve'], Serve>;

function sendPage(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  facts: SignInPageFacts,
  extra: Record<string, string> = {},
): void {
  const html = signInPage(facts);
  setPageHeaders(response, contentSecurityPolicy({ styleHashes: inlineStyleHashes(html) }));
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...extra });
  response.end(request.method === 'HEAD' ? undefined : html);
}

function redirect(response: ServerResponse, location: string): void {
  response.writeHead(303, { location, 'cache-control': 'no-store' });
  response.end();
}

/** The form's token: the one its cookie holds already, or a new one set in the cookie. */
function formToken(request: IncomingMessage, response: ServerResponse, secure: boolean): string {
  const kept = readCookie(request, formCookieName(secure));
  if (kept) return kept;
  const token = newCsrfToken();
  setCookie(response, formCookieName(secure), token, { secure, maxAgeSeconds: 3600 });
  return token;
}

function minutes(seconds: number): string {
  const count = Math.ceil(seconds / 60);
  return count === 1 ? 'a minute' : `${count} minutes`;
}

async function showForm(
  context: AuthContext,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): Promise<void> {
  const { secure, session } = sessionOf(context, request);
  const next = safeNext(url.searchParams.get('next'));
  if (session) return redirect(response, next);
  const notice =
    url.searchParams.get('signed_out') === '1'
      ? 'You are signed out.'
      : url.searchParams.get('ended') === '1'
        ? 'Your session has ended. Sign in again to continue.'
        : undefined;
  sendPage(request, response, 200, {
    formToken: formToken(request, response, secure),
    next,
    ...(notice ? { notice } : {}),
  });
}

async function signIn(
  context: AuthContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const { secure, cookie: oldCookie } = sessionOf(context, request);
  const form = await readForm(request);
  const next = safeNext(form?.get('next'));
  const name = (form?.get('name') ?? '').trim().slice(0, 80);
  const password = form?.get('password') ?? '';
  const again = (status: number, error: string, extra: Record<string, string> = {}) =>
    sendPage(
      request,
      response,
      status,
      { formToken: formToken(request, response, secure), next, name, error },
      extra,
    );
  if (!form) return again(400, 'The form could not be read. Please try again.');
  // Double submit: the form's hidden token matches its cookie, so no other site posted it.
  if (!sameToken(readCookie(request, formCookieName(secure)) ?? '', form.get('csrf') ?? '')) {
    return again(403, 'This form had expired. Please sign in again.');
  }

  const user = NAME_PATTERN.test(name) ? context.store.findUser(name) : undefined;
  const attempt = {
    account: name.toLowerCase(),
    address: clientAddress(request, context.transport),
    device: context.devices.deviceOf(readCookie(request, deviceCookieName(secure)), user),
  };
  const wait = context.slowing.retryAfterSeconds(attempt);
  if (wait > 0) {
    return again(429, `Too many attempts. Please wait ${minutes(wait)} and try again.`, {
      'retry-after': String(wait),
    });
  }

  const trusted = context.slowing.trust(attempt) !== 'none';
  const verdict = await checkPassword(context, user, password, trusted ? 'trusted' : 'untrusted');
  if (verdict.kind === 'busy') {
    return again(503, 'Many sign-ins are being checked right now. Please try again shortly.', {
      'retry-after': String(BUSY_RETRY_SECONDS),
    });
  }
  if (!user || verdict.kind === 'wrong') {
    context.slowing.failed(attempt);
    return again(401, WRONG_CREDENTIALS);
  }

  context.slowing.succeeded(attempt);
  // A new id every time: whatever session the browser carried (a fixated one too) ends here.
  if (oldCookie) context.book.end(hashSessionId(oldCookie));
  const { id } = context.book.open(user.name, {
    address: attempt.address,
    userAgent: String(request.headers['user-agent'] ?? ''),
  });
  setCookie(response, sessionCookieName(secure), id, {
    secure,
    maxAgeSeconds: context.book.cookieMaxAgeSeconds,
  });
  // This browser is a known device of the account from now on (see SignInSlowing).
  const device = context.devices.issue({ name: user.name, passwordHash: verdict.passwordHash });
  setCookie(response, deviceCookieName(secure), device, {
    secure,
    maxAgeSeconds: DEVICE_COOKIE_MAX_AGE_SECONDS,
    sameSite: 'Lax',
  });
  setCookie(response, formCookieName(secure), '', { secure, maxAgeSeconds: 0 });
  redirect(response, next);
}

async function signOut(
  context: AuthContext,
  request: IncomingMessage,
  response: ServerResponse,
  everywhere: boolean,
): Promise<void> {
  const { secure, session } = sessionOf(context, request);
  const form = await readForm(request);
  if (session) {
    const token = headerToken(request) ?? form?.get('csrf') ?? undefined;
    if (!sameToken(session.csrfToken, token)) {
      return sendEnvelope(response, 403, 'csrf_failed', 'The request lacks this session’s token.');
    }
    if (everywhere) context.book.endEverywhere(session.name);
    else context.book.end(session.idHash);
  }
  setCookie(response, sessionCookieName(secure), '', { secure, maxAgeSeconds: 0 });
  // Nothing of the account stays in this browser: its kept copies, outbox, pages and storage
  // (the page clears them too before it posts, for browsers that ignore this header).
  response.setHeader('clear-site-data', '"cache", "storage"');
  redirect(response, `${SIGN_IN_PATH}?signed_out=1`);
}

function sessionFacts(context: AuthContext, request: IncomingMessage, response: ServerResponse) {
  const { session } = sessionOf(context, request);
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(
    JSON.stringify({
      user: session ? { name: session.name, role: session.role } : null,
      signInRequired: signInRequired(context.exposed, request),
    }),
  );
}

/** Each sign-in route's handler, on the raw response; the guard has checked Host and Origin. */
export function signInHandlers(context: AuthContext): SignInHandlers {
  return {
    form: (request, response) => showForm(context, request, response, requestUrl(request.url)),
    signIn: (request, response) => signIn(context, request, response),
    session: async (request, response) => sessionFacts(context, request, response),
    signOut: (request, response) => signOut(context, request, response, false),
    signOutEverywhere: (request, response) => signOut(context, request, response, true),
  };
}
