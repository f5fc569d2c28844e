import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { openStore, type StoreFile } from '../../shared/sqlite/open-store';
import type { Role } from './roles';

/** Account names: short, and safe anywhere they are shown (a page, a CSV, a log line). */
export const NAME_PATTERN = /^[A-Za-z0-9._-]{1,40}$/;

export interface UserRow {
  name: string;
  role: Role;
  passwordHash: string;
  createdAt: number;
}

export interface SessionRow {
  /** SHA-256 of the session id (hex); the id itself is only ever in the browser's cookie. */
  idHash: string;
  userName: string;
  role: Role;
  createdAt: number;
  lastSeenAt: number;
  csrfToken: string;
  clientAddress: string;
  userAgent: string;
}

interface RawSession {
  id_hash: string;
  user_name: string;
  role: Role;
  created_at: number;
  last_seen_at: number;
  csrf_token: string;
  client_address: string;
  user_agent: string;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS users (
    name TEXT PRIMARY KEY COLLATE NOCASE,
    role TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
    password_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS sessions (
    id_hash TEXT PRIMARY KEY,
    user_name TEXT NOT NULL COLLATE NOCASE REFERENCES users (name) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    csrf_token TEXT NOT NULL,
    client_address TEXT NOT NULL,
    user_agent TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS sessions_by_user ON sessions (user_name);
  INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', '1');
`;

/**
 * Accounts and sessions in SQLite (WAL), shared with `npm run users`: a password changed or an
 * account removed ends its sessions at once. Every SQL of sign-in is here; times in epoch ms.
 */
export class AccountsStore {
  private readonly file: StoreFile;
  private readonly db: Database.Database;
  /** Read on every request and every pushed event: compiled once. */
  private readonly sessionStatement: Database.Statement;

  constructor(readonly path: string) {
    this.file = openStore(path, 'accounts', [SCHEMA]);
    this.db = this.file.db;
    this.sessionStatement = this.db.prepare(
      `SELECT s.id_hash, s.user_name, u.role, s.created_at, s.last_seen_at, s.csrf_token,
              s.client_address, s.user_agent
       FROM sessions s JOIN users u ON u.name = s.user_name
       WHERE s.id_hash = ?`,
    );
  }

  /** A random key kept in the file, made on first use (shared by every process using the file). */
  secret(name: string): Buffer {
    const fresh = randomBytes(32).toString('hex');
    this.db
      .prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)')
      .run(`secret:${name}`, fresh);
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(`secret:${name}`) as {
      value: string;
    };
    return Buffer.from(row.value, 'hex');
  }

  countUsers(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM users').get() as { n: number }).n;
  }

  /** False when the name is taken (names are compared without case). */
  addUser(user: UserRow): boolean {
    const result = this.db
      .prepare(
        'INSERT OR IGNORE INTO users (name, role, password_hash, created_at) VALUES (?, ?, ?, ?)',
      )
      .run(user.name, user.role, user.passwordHash, user.createdAt);
    return result.changes === 1;
  }

  findUser(name: string): UserRow | undefined {
    const row = this.db
      .prepare('SELECT name, role, password_hash, created_at FROM users WHERE name = ?')
      .get(name) as
      { name: string; role: Role; password_hash: string; created_at: number } | undefined;
    return (
      row && {
        name: row.name,
        role: row.role,
        passwordHash: row.password_hash,
        createdAt: row.created_at,
      }
    );
  }

  /** Every account with its count of open sessions, by name. */
  listUsers(): (Omit<UserRow, 'passwordHash'> & { sessions: number })[] {
    const rows = this.db
      .prepare(
        `SELECT u.name, u.role, u.created_at, COUNT(s.id_hash) AS sessions
         FROM users u LEFT JOIN sessions s ON s.user_name = u.name
         GROUP BY u.name ORDER BY u.name`,
      )
      .all() as { name: string; role: Role; created_at: number; sessions: number }[];
    return rows.map((row) => ({
      name: row.name,
      role: row.role,
      createdAt: row.created_at,
      sessions: row.sessions,
    }));
  }

  /** Sets a new password and ends every session of the account; false when there is none. */
  setPassword(name: string, passwordHash: string): boolean {
    return this.db.transaction(() => {
      const changed = this.db
        .prepare('UPDATE users SET password_hash = ? WHERE name = ?')
        .run(passwordHash, name).changes;
      this.endSessionsOf(name);
      return changed === 1;
    })();
  }

  /**
   * The same password under a new hash (stronger parameters): sessions live on. False when the
   * stored hash is no longer `oldHash` (the password was changed meanwhile).
   */
  replaceHash(name: string, oldHash: string, newHash: string): boolean {
    return (
      this.db
        .prepare('UPDATE users SET password_hash = ? WHERE name = ? AND password_hash = ?')
        .run(newHash, name, oldHash).changes === 1
    );
  }

  /** Removes the account and its sessions; false when there is none. */
  removeUser(name: string): boolean {
    return this.db.transaction(() => {
      this.endSessionsOf(name);
      return this.db.prepare('DELETE FROM users WHERE name = ?').run(name).changes === 1;
    })();
  }

  addSession(session: Omit<SessionRow, 'role'>): void {
    this.db
      .prepare(
        `INSERT INTO sessions
           (id_hash, user_name, created_at, last_seen_at, csrf_token, client_address, user_agent)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        session.idHash,
        session.userName,
        session.createdAt,
        session.lastSeenAt,
        session.csrfToken,
        session.clientAddress,
        session.userAgent,
      );
  }

  /** The session with its account's current role (the account may have changed since). */
  findSession(idHash: string): SessionRow | undefined {
    const row = this.sessionStatement.get(idHash) as RawSession | undefined;
    return (
      row && {
        idHash: row.id_hash,
        userName: row.user_name,
        role: row.role,
        createdAt: row.created_at,
        lastSeenAt: row.last_seen_at,
        csrfToken: row.csrf_token,
        clientAddress: row.client_address,
        userAgent: row.user_agent,
      }
    );
  }

  touchSession(idHash: string, at: number): void {
    this.db.prepare('UPDATE sessions SET last_seen_at = ? WHERE id_hash = ?').run(at, idHash);
  }

  /** Ends the session; the account it belonged to, or undefined when there was none. */
  endSession(idHash: string): string | undefined {
    const row = this.db
      .prepare('DELETE FROM sessions WHERE id_hash = ? RETURNING user_name')
      .get(idHash) as { user_name: string } | undefined;
    return row?.user_name;
  }

  /** Ends every session of the account; the number ended. */
  endSessionsOf(name: string): number {
    return this.db.prepare('DELETE FROM sessions WHERE user_name = ?').run(name).changes;
  }

  /** Drops the sessions idle since `idleBefore` or opened before `createdBefore`; the ones dropped. */
  purgeSessions(idleBefore: number, createdBefore: number): { idHash: string; userName: string }[] {
    const rows = this.db
      .prepare(
        `DELETE FROM sessions WHERE last_seen_at < ? OR created_at < ?
         RETURNING id_hash, user_name`,
      )
      .all(idleBefore, createdBefore) as { id_hash: string; user_name: string }[];
    return rows.map((row) => ({ idHash: row.id_hash, userName: row.user_name }));
  }

  countSessions(name: string): number {
    return (
      this.db.prepare('SELECT COUNT(*) AS n FROM sessions WHERE user_name = ?').get(name) as {
        n: number;
      }
    ).n;
  }

  close(): void {
    this.file.close();
  }
}
