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
