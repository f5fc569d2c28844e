import { addColumns } from '../../shared/sqlite/migrate';
import { openStore, type StoreFile } from '../../shared/sqlite/open-store';

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
export class DeliveryLedger {
  private readonly file: StoreFile;
  private readonly statements;

  constructor(path: string) {
    // NORMAL: no fsync per delivery, so a flood does not stall the event loop on the disk.
    this.file = openStore(path, 'deliveries', MIGRATIONS, { synchronous: 'NORMAL' });
    const { db } = this.file;
    const cutoff = new Date(Date.now() - KEEP_DAYS * 86_400_000).toISOString();
    db.prepare('DELETE FROM accepted_events WHERE accepted_at < ?').run(cutoff);
    this.statements = {
      insert: db.prepare<[string, string, string, string, number, string]>(
        `INSERT OR IGNORE INTO accepted_events
           (event_id, signature, body_digest, topic, test, accepted_at) VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      // A test among the matches wins: a sample stays a sample whatever headers it comes back with.
      lookup: db.prepare<[string, string, string], { test: number | null; n: number }>(
        `SELECT MAX(test) AS test, COUNT(*) AS n FROM accepted_events
         WHERE event_id = ? OR signature = ? OR body_digest = ?`,
      ),
      count: db.prepare<[], number>('SELECT COUNT(*) FROM accepted_events').pluck(),
    };
  }

  /** What is known of a delivery with this id, these signed bytes or this body; null if new. */
  find(eventId: string, signature: string, bodyDigest: string): { test: boolean } | null {
    const row = this.statements.lookup.get(eventId, signature, bodyDigest)!;
    return row.n === 0 ? null : { test: row.test === 1 };
  }

  /** Records a delivery taken; false when its id or signed bytes were recorded already. */
  claim({ eventId, signature, bodyDigest, topic, test }: LedgerEntry, at = new Date()): boolean {
    const row = [eventId, signature, bodyDigest, topic, test ? 1 : 0, at.toISOString()] as const;
    return this.statements.insert.run(...row).changes === 1;
  }

  count(): number {
    return this.statements.count.get()!;
  }

  close(): void {
    this.file.close();
  }
}
