import { addColumns } from '../../shared/sqlite/migrate';
import { SqliteStore } from '../sqlite-store';

/** Entries older than this are forgotten: retries span about a day, a signature an hour. */
const KEEP_DAYS = 30;

/** One delivery as recorded: its id, signed bytes, body alone, and whether it was a test. */
export interface LedgerEntry {
  eventId: string;
  signature: string;
  bodyDigest: string;
  topic: string;
  test: boolean;
}

const MIGRATIONS = [
  `CREATE TABLE IF NOT EXISTS accepted_events (
     event_id TEXT PRIMARY KEY, topic TEXT NOT NULL, accepted_at TEXT NOT NULL
   )`,
  // Ledgers written by earlier versions gain the columns (NULL or 0 for their old rows).
  addColumns('accepted_events', [
    'signature TEXT',
    'body_digest TEXT',
    'test INTEGER NOT NULL DEFAULT 0',
  ]),
  `CREATE UNIQUE INDEX IF NOT EXISTS accepted_events_signature ON accepted_events (signature);
   CREATE INDEX IF NOT EXISTS accepted_events_body ON accepted_events (body_digest);`,
];

/** Every delivery taken (tests too) by id, signed bytes and body: a replay is not applied twice. */
export class DeliveryLedger extends SqliteStore {
  constructor(path: string) {
    // NORMAL: no fsync per delivery, so a flood does not stall the event loop on the disk.
    super(path, 'deliveries', MIGRATIONS, { synchronous: 'NORMAL' });
    const cutoff = new Date(Date.now() - KEEP_DAYS * 86_400_000).toISOString();
    this.sql('DELETE FROM accepted_events WHERE accepted_at < ?').run(cutoff);
  }

  /** What is known of a delivery with this id, these signed bytes or this body; null if new. */
  find(eventId: string, signature: string, bodyDigest: string): { test: boolean } | null {
    // A test among the matches wins: a sample stays a sample whatever headers it comes back with.
    const sql = `SELECT MAX(test) AS test, COUNT(*) AS n FROM accepted_events
      WHERE event_id = ? OR signature = ? OR body_digest = ?`;
    const row = this.sql(sql).get(eventId, signature, bodyDigest) as { test: number; n: number };
    return row.n === 0 ? null : { test: row.test === 1 };
  }

  /** Records a delivery taken; false when its id or signed bytes were recorded already. */
  claim({ eventId, signature, bodyDigest, topic, test }: LedgerEntry, at = new Date()): boolean {
    const sql = `INSERT OR IGNORE INTO accepted_events
      (event_id, signature, body_digest, topic, test, accepted_at) VALUES (?, ?, ?, ?, ?, ?)`;
    const row = [eventId, signature, bodyDigest, topic, test ? 1 : 0, at.toISOString()];
    return this.sql(sql).run(...row).changes === 1;
  }

  count(): number {
    return this.sql('SELECT COUNT(*) FROM accepted_events').pluck().get() as number;
  }
}
