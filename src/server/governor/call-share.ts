import type { IncomingMessage } from 'node:http';
import type { Actor } from '../auth/roles';

/**
 * The share of the governor a call counts against: the session when the server names it, else the
 * signed-in person, else (sign-in off) the client's address, so one tab's flood waits behind its
 * own calls, not in front of everyone's.
 */
export function callShare(
  request: IncomingMessage,
  actor: Actor | null | undefined,
  session: string | undefined,
): string {
  if (session) return `session:${session}`;
  if (actor) return `user:${actor.name}`;
  return `address:${request.socket.remoteAddress ?? 'unknown'}`;
}

/** The header naming the browser tab a call came from (a random id per page; never forwarded). */
export const TAB_HEADER = 'x-slabdesk-tab';

const TAB_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The tab a call came from within its share: the browser's `X-Slabdesk-Tab` when it is a plain id,
 * else '' (one tab for every call that names none). The browser's word is enough: a tab only
 * divides its own share's slots, never adds to them.
 */
export function callTab(request: IncomingMessage): string {
  const value = request.headers[TAB_HEADER];
  return typeof value === 'string' && TAB_ID.test(value) ? value : '';
}
