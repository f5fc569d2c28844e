import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { refuse } from '../error-envelope';
import { noStore } from '../plugins/no-store';
import { requestUrl } from '../request-url';
import { contentSecurityPolicy, inlineStyleHashes } from '../security-headers';
import { NAME_PATTERN } from '../auth/accounts-store';
import { SIGN_IN_PATH, type AuthGate } from '../auth/auth-gate';
import { checkPassword } from '../auth/passwords';
import {
  clientAddress,
  deviceCookieName,
  formCookieName,
  headerToken,
  newToken,
  readCookie,
  sameToken,
  sessionCookieName,
  setCookie,
  signInRequired,
} from '../auth/request-facts';
import { safeNext } from '../auth/safe-next';
import { hashSessionId } from '../auth/session-book';
import { DEVICE_COOKIE_MAX_AGE_SECONDS } from '../auth/sign-in-slowing';
import { signInPage, type SignInPageFacts } from '../auth/sign-in-page';

/** The one message for a wrong name or a wrong password: it never says which. */
const WRONG_CREDENTIALS = 'That name and password do not match.';
const BUSY_RETRY_SECONDS = 5;
/** The sign-in and sign-out forms are small: anything longer is not theirs. */
const MAX_FORM_BYTES = 8 * 1024;
const FORM_TYPE = 'application/x-www-form-urlencoded';

type Request = FastifyRequest<{ Body: URLSearchParams | null | undefined }>;

const sendPage = (reply: FastifyReply, status: number, facts: SignInPageFacts) => {
  const html = signInPage(facts);
  const csp = contentSecurityPolicy({ styleHashes: inlineStyleHashes(html) });
  reply.header('content-security-policy', csp);
  return reply.code(status).type('text/html; charset=utf-8').send(html);
};

/** The form's token: the one its cookie holds already, or a new one set in the cookie. */
function formToken(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const kept = readCookie(request.raw, formCookieName(secure));
  if (kept) return kept;
  const token = newToken();
  setCookie(reply, formCookieName(secure), token, { secure, maxAgeSeconds: 3600 });
  return token;
}

const minutes = (seconds: number) =>
  seconds <= 60 ? 'a minute' : `${Math.ceil(seconds / 60)} minutes`;

async function signIn(gate: AuthGate, request: Request, reply: FastifyReply) {
  const { secure, cookie: oldCookie } = request.admission;
  const form = request.body === undefined ? new URLSearchParams() : request.body;
  const next = safeNext(form?.get('next'));
  const name = (form?.get('name') ?? '').trim().slice(0, 80);
  const again = (status: number, error: string, retryAfter?: number) => {
    if (retryAfter) reply.header('retry-after', String(retryAfter));
    const token = formToken(request, reply, secure);
    return sendPage(reply, status, { formToken: token, next, name, error });
  };
  if (!form) return again(400, 'The form could not be read. Please try again.');
  // Double submit: the form's hidden token matches its cookie, so no other site posted it.
  if (!sameToken(readCookie(request.raw, formCookieName(secure)), form.get('csrf') ?? '')) {
    return again(403, 'This form had expired. Please sign in again.');
  }
  const user = NAME_PATTERN.test(name) ? gate.store.findUser(name) : undefined;
  const attempt = {
    account: name.toLowerCase(),
    address: clientAddress(request.raw, gate.transport),
    device: gate.devices.deviceOf(readCookie(request.raw, deviceCookieName(secure)), user),
  };
  const wait = gate.slowing.retryAfterSeconds(attempt);
  if (wait > 0) {
    return again(429, `Too many attempts. Please wait ${minutes(wait)} and try again.`, wait);
  }
  const trusted = gate.slowing.trust(attempt) !== 'none';
  const password = form.get('password') ?? '';
  const verdict = await checkPassword(gate, user, password, trusted ? 'trusted' : 'untrusted');
  if (verdict.kind === 'busy') {
    const words = 'Many sign-ins are being checked right now. Please try again shortly.';
    return again(503, words, BUSY_RETRY_SECONDS);
  }
  if (!user || verdict.kind === 'wrong') {
    gate.slowing.failed(attempt);
    return again(401, WRONG_CREDENTIALS);
  }
  gate.slowing.succeeded(attempt);
  // A new id every time: whatever session the browser carried (a fixated one too) ends here.
  if (oldCookie) gate.book.end(hashSessionId(oldCookie));
  const { id } = gate.book.open(user.name, {
    address: attempt.address,
    userAgent: String(request.headers['user-agent'] ?? ''),
  });
  const maxAgeSeconds = Math.floor(gate.book.times.maxHours * 3600);
  setCookie(reply, sessionCookieName(secure), id, { secure, maxAgeSeconds });
  // This browser is a known device of the account from now on (see SignInSlowing).
  const device = gate.devices.issue({ name: user.name, passwordHash: verdict.passwordHash });
  setCookie(reply, deviceCookieName(secure), device, {
    secure,
    maxAgeSeconds: DEVICE_COOKIE_MAX_AGE_SECONDS,
    sameSite: 'Lax',
  });
  setCookie(reply, formCookieName(secure), '', { secure, maxAgeSeconds: 0 });
  return reply.redirect(next, 303);
}

async function signOut(gate: AuthGate, request: Request, reply: FastifyReply, everywhere: boolean) {
  const { secure, session } = request.admission;
  if (session) {
    const token = headerToken(request.raw) ?? request.body?.get('csrf') ?? undefined;
    if (!sameToken(session.csrfToken, token)) {
      return refuse(reply, 403, 'csrf_failed', 'The request lacks this session’s token.');
    }
    if (everywhere) gate.book.endEverywhere(session.name);
    else gate.book.end(session.idHash);
  }
  setCookie(reply, sessionCookieName(secure), '', { secure, maxAgeSeconds: 0 });
  // Nothing of the account stays in this browser (the page clears it too, before it posts).
  reply.header('clear-site-data', '"cache", "storage"');
  return reply.redirect(`${SIGN_IN_PATH}?signed_out=1`, 303);
}

/**
 * Sign-in's form, sign-in, sign-out and the session's facts: open to anyone (each checks its own
 * form or session token); a body is a form or nothing (null: another type).
 */
export async function signInRoutes(app: FastifyInstance, { gate }: { gate: AuthGate }) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, text, done) => {
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    done(null, type === FORM_TYPE || text === '' ? new URLSearchParams(String(text)) : null);
  });
  app.addHook('onRequest', noStore);
  const open = { config: { access: 'public' as const }, bodyLimit: MAX_FORM_BYTES };
  app.get(SIGN_IN_PATH, open, (request, reply) => {
    const { secure, session } = request.admission;
    const query = requestUrl(request.url).searchParams;
    const next = safeNext(query.get('next'));
    if (session) return reply.redirect(next, 303);
    const notice =
      query.get('signed_out') === '1'
        ? 'You are signed out.'
        : query.get('ended') === '1'
          ? 'Your session has ended. Sign in again to continue.'
          : undefined;
    const token = formToken(request, reply, secure);
    return sendPage(reply, 200, { formToken: token, next, ...(notice ? { notice } : {}) });
  });
  app.post(SIGN_IN_PATH, open, (request: Request, reply) => signIn(gate, request, reply));
  app.get('/auth/session', open, (request, reply) => {
    const { session } = request.admission;
    return reply.send({
      user: session ? { name: session.name, role: session.role } : null,
      signInRequired: signInRequired(gate.exposed, request.raw),
    });
  });
  const out = (everywhere: boolean) => (request: Request, reply: FastifyReply) =>
    signOut(gate, request, reply, everywhere);
  app.post('/auth/sign-out', open, out(false));
  app.post('/auth/sign-out-everywhere', open, out(true));
}
