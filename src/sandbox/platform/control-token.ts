import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { bearerToken } from './credentials';

/** The token a control call presents: `Authorization: Bearer <token>` or `X-Sandbox-Control-Token`. */
export function presentedControlToken(headers: IncomingHttpHeaders): string | undefined {
  const own = headers['x-sandbox-control-token'];
  if (typeof own === 'string' && own !== '') return own.trim();
  return typeof headers.authorization === 'string' ? bearerToken(headers.authorization) : undefined;
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Constant time: both sides hashed first, so neither content nor length shows in the timing. */
export function controlTokenMatches(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  return timingSafeEqual(digest(expected), digest(presented));
}
