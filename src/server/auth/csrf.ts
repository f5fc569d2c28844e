import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The header the page sends its session's token in (forms: the hidden field `csrf`). */
export const CSRF_HEADER = 'x-slabdesk-csrf';

export const newCsrfToken = () => randomBytes(32).toString('base64url');

/** Whether two tokens are the same, in constant time (a missing one never matches). */
export function sameToken(expected: string, given: string | undefined): boolean {
  if (!given || !expected) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a request carries in its header, if any. */
export function headerToken(request: IncomingMessage): string | undefined {
  const value = request.headers[CSRF_HEADER];
  return Array.isArray(value) ? value[0] : value;
}
