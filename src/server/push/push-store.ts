import type { HubSoldOnlineAlert } from '../../client/hub-messages';
import { SqliteStore } from '../sqlite-store';

/** The "sold online" alerts and the phones subscribed to them by Web Push: every SQL of both. */

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
const MAX_SUBSCRIPTIONS = 500;
const MAX_SUBSCRIPTIONS_PER_ACCOUNT = 20;

const SUBSCRIPTIONS = `SELECT endpoint, p256dh, auth, account, session_hash AS sessionHash,
  created_at AS createdAt FROM push_subscriptions ORDER BY created_at`;
const ALERT = `SELECT listing_id AS listingId, title, cert_number AS certNumber, grader,
  show_key AS showKey, show_name AS showName, sold_at AS soldAt, url FROM sold_online_alerts`;

const SCHEMA = `CREATE TABLE IF NOT EXISTS push_subscriptions (
    endpoint TEXT PRIMARY KEY, p256dh TEXT NOT NULL, auth TEXT NOT NULL, account TEXT,
    session_hash TEXT, created_at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS push_by_account ON push_subscriptions (account, created_at);
  CREATE INDEX IF NOT EXISTS push_by_session ON push_subscriptions (session_hash);
  CREATE TABLE IF NOT EXISTS sold_online_alerts (
    listing_id TEXT PRIMARY KEY, title TEXT NOT NULL, cert_number TEXT, grader TEXT,
    show_key TEXT NOT NULL, show_name TEXT NOT NULL, sold_at TEXT NOT NULL, url TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS sold_online_by_time ON sold_online_alerts (sold_at);
  CREATE TABLE IF NOT EXISTS push_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`;

export class PushStore extends SqliteStore {
  constructor(path: string) {
    // Endpoints are capabilities (they wake the phone), the VAPID key signs for this server.
    super(path, 'push', [SCHEMA]);
  }

  meta(key: string): string | undefined {
    return this.sql('SELECT value FROM push_meta WHERE key = ?').pluck().get(key) as
      string | undefined;
  }

  setMeta(key: string, value: string): void {
    this.sql('INSERT OR REPLACE INTO push_meta (key, value) VALUES (?, ?)').run(key, value);
  }

  /** Keeps the subscription (replacing the endpoint's), then drops the oldest past the bounds. */
  subscribe(record: PushSubscriptionRecord): void {
    const keep = this.db.transaction(() => {
      this.sql(
        `INSERT OR REPLACE INTO push_subscriptions
           (endpoint, p256dh, auth, account, session_hash, created_at)
           VALUES (@endpoint, @p256dh, @auth, @account, @sessionHash, @createdAt)`,
      ).run(record);
      const beyond = (where: string) =>
        `DELETE FROM push_subscriptions WHERE endpoint IN (SELECT endpoint FROM push_subscriptions
           ${where} ORDER BY created_at DESC LIMIT -1 OFFSET ?)`;
      this.sql(beyond('WHERE account IS ?')).run(record.account, MAX_SUBSCRIPTIONS_PER_ACCOUNT);
      this.sql(beyond('')).run(MAX_SUBSCRIPTIONS);
    });
    keep.immediate();
  }

  /** Drops an endpoint's subscription, those of these sessions, or an account's; how many. */
  drop(column: 'endpoint' | 'session_hash' | 'account', values: readonly string[]): number {
    const drop = this.sql(`DELETE FROM push_subscriptions WHERE ${column} = ?`);
    return values.reduce((dropped, value) => dropped + drop.run(value).changes, 0);
  }

  subscriptions(): PushSubscriptionRecord[] {
    return this.sql(SUBSCRIPTIONS).all() as PushSubscriptionRecord[];
  }

  /** Keeps the alert of a listing's sale; false when it was told before (a slab sells once). */
  recordAlert(alert: HubSoldOnlineAlert): boolean {
    const insert = this.sql(
      `INSERT INTO sold_online_alerts (listing_id, title, cert_number, grader, show_key,
         show_name, sold_at, url)
       VALUES (@listingId, @title, @certNumber, @grader, @showKey, @showName, @soldAt, @url)
       ON CONFLICT (listing_id) DO NOTHING`,
    );
    return insert.run(alert).changes > 0;
  }

  alertsSince(since: string, limit: number): HubSoldOnlineAlert[] {
    const read = this.sql(`${ALERT} WHERE sold_at >= ? ORDER BY sold_at DESC LIMIT ?`);
    return read.all(since, limit) as HubSoldOnlineAlert[];
  }
}
