import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Listeners } from '../../client/listeners';
import { guarded } from '../hub/background-error';
import { SqliteStore } from '../sqlite-store';
import type { Role } from './roles';

export const DEFAULT_USERS_DB = '.sandbox/users.db';
/** Account names: short, and safe anywhere they are shown (a page, a CSV, a log line). */
export const NAME_PATTERN = /^[A-Za-z0-9._-]{1,40}$/;

export type UserRow = { name: string; role: Role; passwordHash: string; createdAt: number };

/** A session: only a SHA-256 of its id is stored (the id itself is only in the browser's cookie). */
type SessionRow = {
  idHash: string;
  userName: string;
  createdAt: number;
  lastSeenAt: number;
  csrfToken: string;
  clientAddress: string;
  userAgent: string;
};
/** A session as read, with its account's current role (the account may have changed since). */
type FoundSession = Pick<SessionRow, 'userName' | 'createdAt' | 'lastSeenAt' | 'csrfToken'> & {
  role: Role;
};

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS users (
    name TEXT PRIMARY KEY COLLATE NOCASE,
    role TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
    password_hash TEXT NOT NULL, created_at INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS sessions (
    id_hash TEXT PRIMARY KEY,
    user_name TEXT NOT NULL COLLATE NOCASE REFERENCES users (name) ON DELETE CASCADE,
    created_at INTEGER NOT NULL, last_seen_at INTEGER NOT NULL, csrf_token TEXT NOT NULL,
    client_address TEXT NOT NULL, user_agent TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS sessions_by_user ON sessions (user_name);
  INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', '1');
`;

const USER = 'name, role, password_hash AS passwordHash, created_at AS createdAt';
/** Read on every request and every pushed event (prepared once, as every statement). */
const SESSION = `SELECT s.user_name AS userName, u.role, s.created_at AS createdAt,
  s.last_seen_at AS lastSeenAt, s.csrf_token AS csrfToken FROM sessions s JOIN users u ON u.name = s.user_name WHERE s.id_hash = ?`;

/** Accounts and sessions, shared with `npm run users`: a change there ends sessions at once. */
export class AccountsStore extends SqliteStore {
  constructor(path: string) {
    super(path, 'accounts', [SCHEMA]);
  }

  private run(sql: string, ...values: unknown[]): number {
    return this.sql(sql).run(...values).changes;
  }

  /** A random key kept in the file, made on first use (shared by every process using the file). */
  secret(name: string): Buffer {
    const key = `secret:${name}`;
    const made = randomBytes(32).toString('hex');
    this.run('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)', key, made);
    const kept = this.sql('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string;
    return Buffer.from(kept, 'hex');
  }

  countUsers(): number {
    return this.sql('SELECT COUNT(*) FROM users').pluck().get() as number;
  }

  /** False when the name is taken (names are compared without case). */
  addUser(user: UserRow): boolean {
    const sql =
      'INSERT OR IGNORE INTO users (name, role, password_hash, created_at) VALUES (?, ?, ?, ?)';
    return this.run(sql, user.name, user.role, user.passwordHash, user.createdAt) === 1;
  }

  findUser(name: string): UserRow | undefined {
    return this.sql(`SELECT ${USER} FROM users WHERE name = ?`).get(name) as UserRow | undefined;
  }

  listUsers() {
    const sql = `SELECT u.name, u.role, u.created_at AS createdAt, COUNT(s.id_hash) AS sessions
      FROM users u LEFT JOIN sessions s ON s.user_name = u.name GROUP BY u.name ORDER BY u.name`;
    return this.sql(sql).all() as (Omit<UserRow, 'passwordHash'> & { sessions: number })[];
  }

  /** Sets a new password and ends every session of the account; false when there is none. */
  setPassword(name: string, passwordHash: string): boolean {
    return this.db.transaction(() => {
      const sql = 'UPDATE users SET password_hash = ? WHERE name = ?';
      const changed = this.run(sql, passwordHash, name);
      this.endSessions('user_name = ?', name);
      return changed === 1;
    })();
  }

  /** The same password under a new hash (sessions live on); false when it is no longer `oldHash`. */
  replaceHash(name: string, oldHash: string, newHash: string): boolean {
    const sql = 'UPDATE users SET password_hash = ? WHERE name = ? AND password_hash = ?';
    return this.run(sql, newHash, name, oldHash) === 1;
  }

  removeUser(name: string): boolean {
    return this.db.transaction(() => {
      this.endSessions('user_name = ?', name);
      return this.run('DELETE FROM users WHERE name = ?', name) === 1;
    })();
  }

  addSession(session: SessionRow): void {
    this.run(
      `INSERT INTO sessions
         (id_hash, user_name, created_at, last_seen_at, csrf_token, client_address, user_agent)
       VALUES (@idHash, @userName, @createdAt, @lastSeenAt, @csrfToken, @clientAddress, @userAgent)`,
      session,
    );
  }

  findSession(idHash: string): FoundSession | undefined {
    return this.sql(SESSION).get(idHash) as FoundSession | undefined;
  }

  touchSession(idHash: string, at: number): void {
    this.run('UPDATE sessions SET last_seen_at = ? WHERE id_hash = ?', at, idHash);
  }

  /** Ends the sessions `where` picks (by id hash, account, or times); those it ended. */
  endSessions(where: string, ...values: unknown[]): { idHash: string; userName: string }[] {
    const sql = `DELETE FROM sessions WHERE ${where} RETURNING id_hash AS idHash, user_name AS userName`;
    return this.sql(sql).all(...values) as { idHash: string; userName: string }[];
  }

  countSessions(name: string): number {
    const sql = 'SELECT COUNT(*) FROM sessions WHERE user_name = ?';
    return this.sql(sql).pluck().get(name) as number;
  }
}

export const newToken = () => randomBytes(32).toString('base64url');

/** Whether two tokens are the same, in constant time (a missing one never matches). */
export function sameToken(expected: string | undefined, given: string | undefined): boolean {
  if (!given || !expected) return false;
  const [a, b] = [Buffer.from(expected), Buffer.from(given)];
  return a.length === b.length && timingSafeEqual(a, b);
}

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
  private readonly ended = new Listeners<Parameters<SessionsEndedListener>>();

  constructor(
    private readonly store: AccountsStore,
    readonly times: SessionTimes,
  ) {}

  /** Told whenever sessions end here (sign-out, everywhere, expiry); returns the way to stop. */
  onSessionsEnded(listener: SessionsEndedListener): () => void {
    // One that throws neither stops the others nor the sign-out.
    return this.ended.subscribe((...args) =>
      guarded('telling a session’s end', () => listener(...args)),
    );
  }

  private announce(ended: EndedSessions, userName: string): void {
    if (!Array.isArray(ended) || ended.length > 0) this.ended.tell(ended, userName);
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

  end(idHash: string): void {
    const [ended] = this.store.endSessions('id_hash = ?', idHash);
    if (ended) this.announce([idHash], ended.userName);
  }

  endEverywhere(name: string): void {
    this.store.endSessions('user_name = ?', name);
    this.announce('all-of-user', name);
  }

  /** Drops every expired session (run now and then; `find` also ends the ones it meets). */
  purge(): number {
    const ended = this.store.endSessions('last_seen_at < ? OR created_at < ?', ...this.cutoffs());
    const byUser = new Map<string, string[]>();
    for (const { idHash, userName } of ended)
      byUser.set(userName, [...(byUser.get(userName) ?? []), idHash]);
    for (const [userName, idHashes] of byUser) this.announce(idHashes, userName);
    return ended.length;
  }

  /** A session seen last before the first instant, or opened before the second, is over. */
  private cutoffs(now = this.times.now()): [idleBefore: number, createdBefore: number] {
    return [now - this.times.idleMinutes * MINUTE, now - this.times.maxHours * HOUR];
  }

  private expired(row: { lastSeenAt: number; createdAt: number }, now: number): boolean {
    const [idleBefore, createdBefore] = this.cutoffs(now);
    return row.lastSeenAt < idleBefore || row.createdAt < createdBefore;
  }
}
