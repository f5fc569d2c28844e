import { createHash, randomBytes } from 'node:crypto';
import type { AccountsStore } from './accounts-store';
import type { Role } from './roles';

export interface SessionTimes {
  /** A session unused this long ends (default 12 h, `SLABDESK_SESSION_IDLE_MINUTES`). */
  idleMinutes: number;
  /** A session ends this long after sign-in however used (default 7 days, `SLABDESK_SESSION_MAX_HOURS`). */
  maxHours: number;
  /** The clock (epoch ms); tests move it. */
  now: () => number;
}

export const DEFAULT_IDLE_MINUTES = 12 * 60;
export const DEFAULT_MAX_HOURS = 7 * 24;

/** A signed-in session as a request sees it. */
export interface ActiveSession {
  idHash: string;
  name: string;
  role: Role;
  csrfToken: string;
  createdAt: number;
}

/** Only a hash of the id is stored: a copy of the database opens no session. */
export const hashSessionId = (id: string) => createHash('sha256').update(id).digest('hex');

const newToken = () => randomBytes(32).toString('base64url');
const MINUTE = 60_000;

/** The sessions: opened at sign-in with a fresh id, ended by idle or absolute expiry or sign-out. */
export class SessionBook {
  constructor(
    private readonly store: AccountsStore,
    readonly times: SessionTimes,
  ) {}

  /** Seconds the cookie may live: the absolute expiry (the idle one is checked here). */
  get cookieMaxAgeSeconds(): number {
    return Math.floor(this.times.maxHours * 3600);
  }

  /** A new session for the account: a new random id every time, never one the browser sent. */
  open(name: string, client: { address: string; userAgent: string }): { id: string } {
    const id = newToken();
    const at = this.times.now();
    this.store.addSession({
      idHash: hashSessionId(id),
      userName: name,
      createdAt: at,
      lastSeenAt: at,
      csrfToken: newToken(),
      clientAddress: client.address.slice(0, 64),
      userAgent: client.userAgent.slice(0, 200),
    });
    return { id };
  }

  /** The live session for a cookie's id, or null (an expired one is ended on the way). */
  find(id: string | undefined): ActiveSession | null {
    if (!id) return null;
    const idHash = hashSessionId(id);
    const row = this.store.findSession(idHash);
    if (!row) return null;
    const now = this.times.now();
    const idle = now - row.lastSeenAt > this.times.idleMinutes * MINUTE;
    const old = now - row.createdAt > this.times.maxHours * 60 * MINUTE;
    if (idle || old) {
      this.store.endSession(idHash);
      return null;
    }
    // Written at most once a minute: a page's burst of calls costs one write, not fifty.
    if (now - row.lastSeenAt >= MINUTE) this.store.touchSession(idHash, now);
    return {
      idHash,
      name: row.userName,
      role: row.role,
      csrfToken: row.csrfToken,
      createdAt: row.createdAt,
    };
  }

  end(idHash: string): void {
    this.store.endSession(idHash);
  }

  /** Sign out everywhere: every session of the account. */
  endEverywhere(name: string): number {
    return this.store.endSessionsOf(name);
  }

  /** Drops every expired session (run now and then; `find` also ends the ones it meets). */
  purge(): number {
    const now = this.times.now();
    return this.store.purgeSessions(
      now - this.times.idleMinutes * MINUTE,
      now - this.times.maxHours * 60 * MINUTE,
    );
  }
}
