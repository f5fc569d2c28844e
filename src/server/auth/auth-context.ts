import type { IncomingMessage } from 'node:http';
import type { AccountsStore } from './accounts-store';
import type { HashingQueue } from './hashing-queue';
import type { KnownDevices } from './known-device';
import { readCookie, sessionCookieName } from './cookies';
import { overTls, type TransportSettings } from './request-facts';
import type { ActiveSession, SessionBook } from './session-book';
import type { SignInSlowing } from './sign-in-slowing';

/** What the gate and the sign-in routes share: the accounts, the sessions, the limits. */
export interface AuthContext {
  store: AccountsStore;
  book: SessionBook;
  /** Failed sign-ins, counted apart for known devices, known addresses and everyone else. */
  slowing: SignInSlowing;
  /** The browsers that signed in before (device cookies). */
  devices: KnownDevices;
  /** Password checks, a few at a time, known devices first. */
  hashing: HashingQueue;
  transport: TransportSettings;
  /** Whether another machine can reach the server (every request then needs a session). */
  exposed: boolean;
}

/** The request's session: its cookie (by the request's TLS), and the live session it opens. */
export function sessionOf(
  context: AuthContext,
  request: IncomingMessage,
): { secure: boolean; cookie: string | undefined; session: ActiveSession | null } {
  const secure = overTls(request, context.transport);
  const cookie = readCookie(request, sessionCookieName(secure));
  return { secure, cookie, session: context.book.find(cookie) };
}
