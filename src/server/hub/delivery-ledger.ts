import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/**
 * The webhook event ids this server has accepted, on disk (SQLite, WAL): an id is claimed in the
 * same moment the delivery is acknowledged, so a redelivery, a retry after a lost answer or a
 * replay after a restart is recognised and not applied twice.
 */
export class DeliveryLedger {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement<[string, string, string]>;

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    if (path !== ':memory:') this.db.pragma('journal_mode = WAL');
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS accepted_events (
         event_id TEXT PRIMARY KEY,
         topic TEXT NOT NULL,
         accepted_at TEXT NOT NULL
       )`,
    );
    this.insert = this.db.prepare(
      'INSERT OR IGNORE INTO accepted_events (event_id, topic, accepted_at) VALUES (?, ?, ?)',
    );
  }

  /** True when the id is new (and is now recorded); false when it was accepted before. */
  claim(eventId: string, topic: string, at: Date = new Date()): boolean {
    return this.insert.run(eventId, topic, at.toISOString()).changes === 1;
  }

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM accepted_events').get() as { n: number }).n;
  }

  close(): void {
    this.db.close();
  }
}
