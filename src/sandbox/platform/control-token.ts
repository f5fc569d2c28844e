import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** The token a control call presents: `Authorization: Bearer <token>` or `X-Sandbox-Control-Token`. */
export function presentedControlToken(headers: IncomingHttpHeaders): string | undefined {
  const own = headers['x-sandbox-control-token'];
  if (typeof own === 'string' && own !== '') return own.trim();
  const authorization = headers.authorization;
  const match =
    typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  return match?.[1];
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Compares in constant time: both sides are hashed first, so neither the content nor the length
 * of the expected token shows in how long a wrong guess takes.
 */
export function controlTokenMatches(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  return timingSafeEqual(digest(expected), digest(presented));
}
