import type { IncomingMessage, ServerResponse } from 'node:http';

/** One cookie's value from the request's `Cookie` header (the first of that name). */
export function readCookie(request: IncomingMessage, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    if (part.slice(0, at).trim() === name) {
      const value = part.slice(at + 1).trim();
      return /^[A-Za-z0-9_-]{1,128}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/**
 * Adds an HttpOnly cookie, SameSite=Strict unless told (the device cookie is Lax, so a link from
 * elsewhere to the sign-in page still finds it); `maxAgeSeconds` 0 clears it, undefined: until closed.
 */
export function setCookie(
  response: ServerResponse,
  name: string,
  value: string,
  options: { secure: boolean; maxAgeSeconds?: number; sameSite?: 'Strict' | 'Lax' },
): void {
  const parts = [
    `${name}=${value}`,
    'Path=/',
    'HttpOnly',
    `SameSite=${options.sameSite ?? 'Strict'}`,
  ];
  if (options.secure) parts.push('Secure');
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  const previous = response.getHeader('set-cookie');
  const list = Array.isArray(previous) ? previous : previous ? [String(previous)] : [];
  response.setHeader('set-cookie', [...list, parts.join('; ')]);
}

/** The session cookie: `__Host-` over TLS (Secure, this host only, Path=/), else plain. */
export const sessionCookieName = (secure: boolean) =>
  secure ? '__Host-slabdesk_session' : 'slabdesk_session';

/** The sign-in form's own token (double submit: cookie and hidden field), before any session. */
export const formCookieName = (secure: boolean) =>
  secure ? '__Host-slabdesk_signin' : 'slabdesk_signin';
