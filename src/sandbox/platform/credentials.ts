import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const TOKEN_PATTERN = /^svc_(live|test)_[A-Za-z0-9]{16,128}$/;

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

export const hashToken = (token: string) => digest(token).toString('hex');

/** Constant time: both sides hashed first, so neither content nor length shows in the timing. */
export const safeEqual = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

export { queryCarriesCredential } from '../../shared/query-credentials';

/** The token of `Authorization: Bearer <token>`, or undefined for any other form. */
export const bearerToken = (authorization: string) =>
  /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];

/** The key from exactly one header form, or null when missing, malformed or given twice. */
export function tokenFromHeaders(headers: IncomingHttpHeaders): string | null {
  const direct = headers['x-service-access-token'];
  const authorization = headers.authorization;
  if (Array.isArray(direct)) return null;
  let bearer: string | undefined;
  if (authorization !== undefined) {
    bearer = bearerToken(authorization);
    if (bearer === undefined) return null;
  }
  if (direct !== undefined && bearer !== undefined) return null;
  const token = (direct ?? bearer)?.trim();
  if (!token || !TOKEN_PATTERN.test(token)) return null;
  return token;
}

/** The token a control call presents: `Authorization: Bearer <token>` or `X-Sandbox-Control-Token`. */
export function presentedControlToken(headers: IncomingHttpHeaders): string | undefined {
  const own = headers['x-sandbox-control-token'];
  if (typeof own === 'string' && own !== '') return own.trim();
  return typeof headers.authorization === 'string' ? bearerToken(headers.authorization) : undefined;
}
