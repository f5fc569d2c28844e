import type Database from 'better-sqlite3';
import type { HubSoldOnlineAlert } from '../../client/hub-messages';
import { openStore, type StoreFile } from '../../shared/sqlite/open-store';

/**
 * The hub's "sold online" alerts and the phones that asked to hear of them by Web Push (SQLite,
 * WAL): every SQL statement of both is in this module.
 */

/** A browser's push subscription, as `PushSubscription.toJSON()` gives it, and whose it is. */
export interface PushSubscriptionRecord {
  endpoint: string;
  p256dh: string;
  auth: string;
  /** The signed-in account that subscribed; null with sign-in off. */
  account: string | null;
  /** The session it subscribed under (its id hash): the subscription ends with it. */
  sessionHash: string | null;
  createdAt: string;
}

/** The most subscriptions kept, and per account: the oldest go first (a phone subscribes again). */
export const MAX_SUBSCRIPTIONS = 500;
export const MAX_SUBSCRIPTIONS_PER_ACCOUNT = 20;

interface SubscriptionRow {
  endpoint: string;
  p256dh: string;
  auth: string;
  account: string | null;
  session_hash: string | null;
  created_at: string;
}

interface AlertRow {
  listing_id: string;
  title: string;
  cert_number: string | null;
  grader: string | null;
  show_key: string;
  show_name: string;
  sold_at: string;
  url: string;
}

const subscriptionOf = (row: SubscriptionRow): PushSubscriptionRecord => ({
  endpoint: row.endpoint,
  p256dh: row.p256dh,
  auth: row.auth,
  account: row.account,
  sessionHash: row.session_hash,
  createdAt: row.created_at,
});

const alertOf = (row: AlertRow): HubSoldOnlineAlert => ({
  listingId: row.listing_id,
  title: row.title,
  certNumber: row.cert_number,
  grader: row.grader,
  showKey: row.show_key,
  showName: row.show_name,
  soldAt: row.sold_at,
  url: row.url,
});

export class PushStore {
  private readonly file: StoreFile;
  private readonly db: Database.Database;

  constructor(path: string) {
    // Push endpoints are capabilities (whoever holds one can wake the phone), and the VAPID
    // private key signs for this server: private like the accounts.
    this.file = openStore(path, 'push', [
      `CREATE TABLE IF NOT EXISTS push_subscriptions (
         endpoint TEXT PRIMARY KEY,
         p256dh TEXT NOT NULL,
         auth TEXT NOT NULL,
         account TEXT,
         session_hash TEXT,
         created_at TEXT NOT NULL
       );
       CREATE INDEX IF NOT EXISTS push_by_account ON push_subscriptions (account, created_at);
       CREATE INDEX IF NOT EXISTS push_by_session ON push_subscriptions (session_hash);
       CREATE TABLE IF NOT EXISTS sold_online_alerts (
         listing_id TEXT PRIMARY KEY,
         title TEXT NOT NULL,
         cert_number TEXT,
         grader TEXT,
         show_key TEXT NOT NULL,
         show_name TEXT NOT NULL,
         sold_at TEXT NOT NULL,
         url TEXT NOT NULL
       );
       CREATE INDEX IF NOT EXISTS sold_online_by_time ON sold_online_alerts (sold_at);
       CREATE TABLE IF NOT EXISTS push_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
    ]);
    this.db = this.file.db;
  }

  meta(key: string): string | undefined {
    const row = this.db.prepare('SELECT value FROM push_meta WHERE key = ?').get(key) as
      { value: string } | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.db
      .prepare(
        'INSERT INTO push_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      )
      .run(key, value);
  }

  /**
   * Keeps the subscription (a browser's endpoint is its own: subscribing again, under any
   * account, replaces what was kept), then drops the oldest past the bounds.
   */
  subscribe(record: PushSubscriptionRecord): void {
    const keep = this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO push_subscriptions (endpoint, p256dh, auth, account, session_hash, created_at)
           VALUES (@endpoint, @p256dh, @auth, @account, @session_hash, @created_at)
           ON CONFLICT (endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth,
             account = excluded.account, session_hash = excluded.session_hash,
             created_at = excluded.created_at`,
        )
        .run({
          endpoint: record.endpoint,
          p256dh: record.p256dh,
          auth: record.auth,
          account: record.account,
          session_hash: record.sessionHash,
          created_at: record.createdAt,
        });
      this.db
        .prepare(
          `DELETE FROM push_subscriptions WHERE endpoint IN (
             SELECT endpoint FROM push_subscriptions WHERE account IS ?
             ORDER BY created_at DESC LIMIT -1 OFFSET ?)`,
        )
        .run(record.account, MAX_SUBSCRIPTIONS_PER_ACCOUNT);
      this.db
        .prepare(
          `DELETE FROM push_subscriptions WHERE endpoint IN (
             SELECT endpoint FROM push_subscriptions ORDER BY created_at DESC LIMIT -1 OFFSET ?)`,
        )
        .run(MAX_SUBSCRIPTIONS);
    });
    keep.immediate();
  }

  /** Drops one browser's subscription; whether there was one. */
  unsubscribe(endpoint: string): boolean {
    return (
      this.db.prepare('DELETE FROM push_subscriptions WHERE endpoint = ?').run(endpoint).changes > 0
    );
  }

  /** Drops the subscriptions made under these sessions (signed out, or ended); how many. */
  dropSessions(sessionHashes: readonly string[]): number {
    const drop = this.db.prepare('DELETE FROM push_subscriptions WHERE session_hash = ?');
    let dropped = 0;
    for (const hash of sessionHashes) dropped += drop.run(hash).changes;
    return dropped;
  }

  /** Drops every subscription of an account (all its sessions ended); how many. */
  dropAccount(account: string): number {
    return this.db.prepare('DELETE FROM push_subscriptions WHERE account = ?').run(account).changes;
  }

  subscriptions(): PushSubscriptionRecord[] {
    const rows = this.db
      .prepare('SELECT * FROM push_subscriptions ORDER BY created_at')
      .all() as SubscriptionRow[];
    return rows.map(subscriptionOf);
  }

  subscription(endpoint: string): PushSubscriptionRecord | undefined {
    const row = this.db
      .prepare('SELECT * FROM push_subscriptions WHERE endpoint = ?')
      .get(endpoint) as SubscriptionRow | undefined;
    return row ? subscriptionOf(row) : undefined;
  }

  /** Keeps the alert of a listing's sale; false when it was told before (a slab sells once). */
  recordAlert(alert: HubSoldOnlineAlert): boolean {
    const result = this.db
      .prepare(
        `INSERT INTO sold_online_alerts (listing_id, title, cert_number, grader, show_key,
           show_name, sold_at, url)
         VALUES (@listingId, @title, @certNumber, @grader, @showKey, @showName, @soldAt, @url)
         ON CONFLICT (listing_id) DO NOTHING`,
      )
      .run(alert);
    return result.changes > 0;
  }

  /** Whether the listing's sale was told already. */
  alerted(listingId: string): boolean {
    return (
      this.db.prepare('SELECT 1 FROM sold_online_alerts WHERE listing_id = ?').get(listingId) !==
      undefined
    );
  }

  /** The alerts told since `since` (ISO), newest first, at most `limit`. */
  alertsSince(since: string, limit: number): HubSoldOnlineAlert[] {
    const rows = this.db
      .prepare('SELECT * FROM sold_online_alerts WHERE sold_at >= ? ORDER BY sold_at DESC LIMIT ?')
      .all(since, limit) as AlertRow[];
    return rows.map(alertOf);
  }

  close(): void {
    this.file.close();
  }
}
