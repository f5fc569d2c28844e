import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/** Entries older than this are forgotten: retries span about a day, a signature an hour. */
const KEEP_DAYS = 30;

/**
 * The webhook events applied, in SQLite (WAL), by event id and by signed bytes, so a redelivery or
 * a replay under another id is not applied twice. Claimed only once applied, for the API's retry.
 */
export class DeliveryLedger {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement<[string, string, string, string]>;
  private readonly lookup: Database.Statement<[string, string]>;

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    if (path !== ':memory:') {
      this.db.pragma('journal_mode = WAL');
      // WAL with NORMAL survives a crash of the process (not of the machine) without an fsync per
      // delivery: a flood of deliveries must not stall the server's event loop on the disk.
      this.db.pragma('synchronous = NORMAL');
    }
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS accepted_events (
         event_id TEXT PRIMARY KEY,
         topic TEXT NOT NULL,
         accepted_at TEXT NOT NULL
       )`,
    );
    // Ledgers written before signatures were kept gain the column (NULL for their old rows).
    const columns = this.db.prepare('PRAGMA table_info(accepted_events)').all() as {
      name: string;
    }[];
    if (!columns.some((column) => column.name === 'signature')) {
      this.db.exec('ALTER TABLE accepted_events ADD COLUMN signature TEXT');
    }
    this.db.exec(
      'CREATE UNIQUE INDEX IF NOT EXISTS accepted_events_signature ON accepted_events (signature)',
    );
    const cutoff = new Date(Date.now() - KEEP_DAYS * 86_400_000).toISOString();
    this.db.prepare('DELETE FROM accepted_events WHERE accepted_at < ?').run(cutoff);
    this.insert = this.db.prepare(
      `INSERT OR IGNORE INTO accepted_events (event_id, signature, topic, accepted_at)
       VALUES (?, ?, ?, ?)`,
    );
    this.lookup = this.db.prepare(
      'SELECT 1 FROM accepted_events WHERE event_id = ? OR signature = ? LIMIT 1',
    );
  }

  /** True when an event with this id, or these very signed bytes, was applied before. */
  seen(eventId: string, signature: string): boolean {
    return this.lookup.get(eventId, signature) !== undefined;
  }

  /** Records an applied event; false when its id or signature was recorded already. */
  claim(eventId: string, signature: string, topic: string, at: Date = new Date()): boolean {
    return this.insert.run(eventId, signature, topic, at.toISOString()).changes === 1;
  }

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM accepted_events').get() as { n: number }).n;
  }

  close(): void {
    this.db.close();
  }
}
