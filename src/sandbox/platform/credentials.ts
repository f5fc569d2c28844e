import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const TOKEN_PATTERN = /^svc_(live|test)_[A-Za-z0-9]{16,128}$/;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

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
