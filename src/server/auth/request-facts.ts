import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/** `SLABDESK_PUBLIC_URL` (https: the browser reaches us over TLS) and `SLABDESK_TRUST_PROXY`. */
export interface TransportSettings {
  publicUrl?: string | undefined;
  trustProxy?: boolean | undefined;
}

/** What marks the server exposed; `allowedHosts`: `SLABDESK_ALLOWED_HOSTS` and `--host NAME`. */
type ExposureSettings = TransportSettings & {
  bindHost: string;
  allowedHosts?: readonly string[] | undefined;
  webhookPort?: number | string | undefined;
  requireSignIn?: boolean | undefined;
};

const header = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

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
const CSRF_HEADER = 'x-slabdesk-csrf';
export const newToken = () => randomBytes(32).toString('base64url');

/** Whether two tokens are the same, in constant time (a missing one never matches). */
export function sameToken(expected: string | undefined, given: string | undefined): boolean {
  if (!given || !expected) return false;
  const [a, b] = [Buffer.from(expected), Buffer.from(given)];
  return a.length === b.length && timingSafeEqual(a, b);
}

export const headerToken = (request: IncomingMessage) => header(request, CSRF_HEADER);

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** The socket's address, or behind a trusted proxy the rightmost `X-Forwarded-For` hop not local. */
export function clientAddress(request: IncomingMessage, settings: TransportSettings): string {
  const socket = request.socket.remoteAddress ?? 'unknown';
  if (!settings.trustProxy) return socket;
  const hops = (header(request, 'x-forwarded-for') ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => isIP(hop) !== 0);
  return hops.findLast((hop) => !LOOPBACK.test(hop)) ?? hops[0] ?? socket;
}

/** Whether the browser reached us over TLS (cookies are then Secure, under a `__Host-` name). */
export function overTls(request: IncomingMessage, settings: TransportSettings): boolean {
  if (settings.publicUrl?.toLowerCase().startsWith('https:')) return true;
  if ('encrypted' in request.socket && request.socket.encrypted === true) return true;
  const proto = header(request, 'x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return settings.trustProxy === true && proto === 'https';
}

/** A name or address of this machine only (`localhost`, 127.0.0.0/8, ::1). */
const isLoopbackName = (name: string): boolean =>
  /^(localhost|.*\.localhost|127(\.\d{1,3}){3}|::1|::ffff:127\.0\.0\.1)$/s.test(
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
export function exposureReasons(settings: ExposureSettings): string[] {
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
