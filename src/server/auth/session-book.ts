import { createHash } from 'node:crypto';
import type { AccountsStore } from './accounts-store';
import { newToken } from './request-facts';
import type { Role } from './roles';
import { serverLog } from '../log';

/** A session ends unused `idleMinutes`, and `maxHours` after sign-in however used. */
type SessionTimes = { idleMinutes: number; maxHours: number; now: () => number };

export type ActiveSession = { idHash: string; name: string; role: Role; csrfToken: string };

/** Which sessions ended: these (by id hash), or every session of the account. */
export type EndedSessions = string[] | 'all-of-user';
/** Told when sessions end, so whatever they opened (an event stream) can close at once. */
export type SessionsEndedListener = (ended: EndedSessions, userName: string) => void;

/** Only a hash of the id is stored: a copy of the database opens no session. */
export const hashSessionId = (id: string) => createHash('sha256').update(id).digest('hex');

const [MINUTE, HOUR] = [60_000, 3_600_000];

/** The sessions: opened at sign-in with a fresh id, ended by idle or absolute expiry or sign-out. */
export class SessionBook {
  private readonly listeners = new Set<SessionsEndedListener>();

  constructor(
    private readonly store: AccountsStore,
    readonly times: SessionTimes,
  ) {}

  /** Told whenever sessions end here (sign-out, everywhere, expiry); returns the way to stop. */
  onSessionsEnded(listener: SessionsEndedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every listener; one that throws neither stops the others nor the sign-out. */
  private announce(ended: EndedSessions, userName: string): void {
    if (Array.isArray(ended) && ended.length === 0) return;
    for (const listener of [...this.listeners]) {
      try {
        listener(ended, userName);
      } catch (error) {
        serverLog.error({ err: error }, 'A session-end listener failed');
      }
    }
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
    if (this.expired(row, now)) {
      this.end(idHash);
      return null;
    }
    // Written at most once a minute: a page's burst of calls costs one write, not fifty.
    if (now - row.lastSeenAt >= MINUTE) this.store.touchSession(idHash, now);
    return { idHash, name: row.userName, role: row.role, csrfToken: row.csrfToken };
  }

  /** Whether the session is open and unexpired: one indexed read, not counted as use. */
  alive(idHash: string): boolean {
    const row = this.store.findSession(idHash);
    return !!row && !this.expired(row, this.times.now());
  }

  /** Ends the session; false when it was gone already. */
  end(idHash: string): boolean {
    const userName = this.store.endSession(idHash);
    if (userName !== undefined) this.announce([idHash], userName);
    return userName !== undefined;
  }

  /** Sign out everywhere: every session of the account. */
  endEverywhere(name: string): number {
    const ended = this.store.endSessionsOf(name);
    this.announce('all-of-user', name);
    return ended;
  }

  /** Drops every expired session (run now and then; `find` also ends the ones it meets). */
  purge(): number {
    const now = this.times.now();
    const ended = this.store.purgeSessions(
      now - this.times.idleMinutes * MINUTE,
      now - this.times.maxHours * HOUR,
    );
    const byUser = new Map<string, string[]>();
    for (const { idHash, userName } of ended)
      byUser.set(userName, [...(byUser.get(userName) ?? []), idHash]);
    for (const [userName, idHashes] of byUser) this.announce(idHashes, userName);
    return ended.length;
  }

  private expired(row: { lastSeenAt: number; createdAt: number }, now: number): boolean {
    const { idleMinutes, maxHours } = this.times;
    return now - row.lastSeenAt > idleMinutes * MINUTE || now - row.createdAt > maxHours * HOUR;
  }
}
