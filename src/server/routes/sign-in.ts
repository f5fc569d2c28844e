import type { FastifyReply, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { refuse } from '../error-envelope';
import { noStore } from '../plugins/no-store';
import { contentSecurityPolicy, inlineStyleHashes } from '../security-headers';
import { hashSessionId, NAME_PATTERN, newToken, sameToken } from '../auth/accounts-store';
import {
  clientAddress,
  cookieOf,
  deviceCookieName,
  formCookieName,
  headerToken,
  sessionCookieName,
  SIGN_IN_PATH,
  signInRequired,
  type AuthGate,
} from '../auth/auth-gate';
import { checkPassword } from '../auth/passwords';
import { DEVICE_COOKIE_MAX_AGE_SECONDS } from '../auth/sign-in-slowing';
import { safeNext, signInPage, type SignInPageFacts } from '../auth/sign-in-page';

/** The one message for a wrong name or a wrong password: it never says which. */
const WRONG_CREDENTIALS = 'That name and password do not match.';
const BUSY_RETRY_SECONDS = 5;

/** A field given once or repeated: its first value, as a form reader takes it. */
const field = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => [value].flat()[0])
  .optional();
/** The sign-in and sign-out forms; null: a body of another type (no form to read). */
const Form = z.object({ csrf: field, next: field, name: field, password: field }).nullish();
const Query = z.object({ next: field, signed_out: field, ended: field });
type Form = z.output<typeof Form> | undefined;

/** HttpOnly, this site only (the device cookie is Lax); max age 0 clears. */
const cookie = (secure: boolean, maxAge: number, sameSite: 'strict' | 'lax' = 'strict') =>
  ({ path: '/', httpOnly: true, sameSite, secure, maxAge }) as const;

/** The page with the form's token: the one its cookie holds already, or a new one set in the cookie. */
function sendPage(reply: FastifyReply, status: number, facts: Omit<SignInPageFacts, 'formToken'>) {
  const { request } = reply;
  const { secure } = request.admission;
  let formToken = cookieOf(request.cookies, formCookieName(secure));
  if (!formToken) {
    formToken = newToken();
    reply.setCookie(formCookieName(secure), formToken, cookie(secure, 3600));
  }
  const html = signInPage({ formToken, ...facts });
  const csp = contentSecurityPolicy({ styleHashes: inlineStyleHashes(html) });
  reply.header('content-security-policy', csp);
  return reply.code(status).type('text/html; charset=utf-8').send(html);
}

const minutes = (seconds: number) =>
  seconds <= 60 ? 'a minute' : `${Math.ceil(seconds / 60)} minutes`;

async function signIn(gate: AuthGate, request: FastifyRequest, form: Form, reply: FastifyReply) {
  const { secure, cookie: oldCookie } = request.admission;
  const next = safeNext(form?.next);
  const name = (form?.name ?? '').trim().slice(0, 80);
  const again = (status: number, error: string, retryAfter?: number) => {
    if (retryAfter) reply.header('retry-after', String(retryAfter));
    return sendPage(reply, status, { next, name, error });
  };
  if (form === null) return again(400, 'The form could not be read. Please try again.');
  // Double submit: the form's hidden token matches its cookie, so no other site posted it.
  if (!sameToken(cookieOf(request.cookies, formCookieName(secure)), form?.csrf)) {
    return again(403, 'This form had expired. Please sign in again.');
  }
  const user = NAME_PATTERN.test(name) ? gate.store.findUser(name) : undefined;
  const attempt = {
    account: name.toLowerCase(),
    address: clientAddress(request.raw, gate.transport),
    device: gate.devices.deviceOf(cookieOf(request.cookies, deviceCookieName(secure)), user),
  };
  const wait = gate.slowing.retryAfterSeconds(attempt);
  if (wait > 0) {
    return again(429, `Too many attempts. Please wait ${minutes(wait)} and try again.`, wait);
  }
  const priority = gate.slowing.trust(attempt) === 'none' ? 'untrusted' : 'trusted';
  const verdict = await checkPassword(gate, user, form?.password ?? '', priority);
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
  const maxAge = Math.floor(gate.book.times.maxHours * 3600);
  // This browser is a known device of the account from now on (see SignInSlowing).
  const device = gate.devices.issue({ name: user.name, passwordHash: verdict.passwordHash });
  return reply
    .setCookie(sessionCookieName(secure), id, cookie(secure, maxAge))
    .setCookie(
      deviceCookieName(secure),
      device,
      cookie(secure, DEVICE_COOKIE_MAX_AGE_SECONDS, 'lax'),
    )
    .setCookie(formCookieName(secure), '', cookie(secure, 0))
    .redirect(next, 303);
}

/** Sign-in's form, sign-in, sign-out and the session's facts: open to anyone (each checks its own token). */
export const signInRoutes: FastifyPluginAsyncZod<{ gate: AuthGate }> = async (app, { gate }) => {
  app.removeAllContentTypeParsers();
  await app.register(formbody);
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, text, done) =>
    done(null, text === '' ? {} : null),
  );
  app.addHook('onRequest', noStore);
  // The sign-in and sign-out forms are small: anything longer is not theirs.
  const open = { config: { access: 'public' as const }, bodyLimit: 8 * 1024 };
  const posted = { ...open, schema: { body: Form } };
  app.get(SIGN_IN_PATH, { ...open, schema: { querystring: Query } }, (request, reply) => {
    const { session } = request.admission;
    const next = safeNext(request.query.next);
    if (session) return reply.redirect(next, 303);
    const notice =
      request.query.signed_out === '1'
        ? 'You are signed out.'
        : request.query.ended === '1'
          ? 'Your session has ended. Sign in again to continue.'
          : undefined;
    return sendPage(reply, 200, { next, ...(notice ? { notice } : {}) });
  });
  app.post(SIGN_IN_PATH, posted, (request, reply) => signIn(gate, request, request.body, reply));
  app.get('/auth/session', open, (request, reply) => {
    const { session } = request.admission;
    return reply.send({
      user: session ? { name: session.name, role: session.role } : null,
      signInRequired: signInRequired(gate.exposed, request.raw),
    });
  });
  for (const [url, everywhere] of [
    ['/auth/sign-out', false],
    ['/auth/sign-out-everywhere', true],
  ] as const) {
    app.post(url, posted, (request, reply) => {
      const { secure, session } = request.admission;
      if (session) {
        if (!sameToken(session.csrfToken, headerToken(request.raw) ?? request.body?.csrf)) {
          return refuse(reply, 403, 'csrf_failed', 'The request lacks this session’s token.');
        }
        if (everywhere) gate.book.endEverywhere(session.name);
        else gate.book.end(session.idHash);
      }
      // Nothing of the account stays in this browser (the page clears it too, before it posts).
      return reply
        .setCookie(sessionCookieName(secure), '', cookie(secure, 0))
        .header('clear-site-data', '"cache", "storage"')
        .redirect(`${SIGN_IN_PATH}?signed_out=1`, 303);
    });
  }
};
