import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore } from '../../src/sandbox/store/index';
import { migrations as sandboxMigrations } from '../../src/sandbox/store/migrations';
import { ActivityStore } from '../../src/server/activity/activity-store';
import { DeliveryLedger } from '../../src/server/hub/delivery-ledger';
import { ShowStore } from '../../src/server/shows/show-store';
import { addColumns, type Migration } from '../../src/shared/sqlite/migrate';
import { openStore } from '../../src/shared/sqlite/open-store';

const dir = mkdtempSync(join(tmpdir(), 'slabdesk-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
const freshPath = () => join(dir, `store-${++files}.db`);

/** What `read` finds in the file, over a connection of its own. */
function inFile<T>(path: string, read: (db: Database.Database) => T): T {
  const db = new Database(path, { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** The version of each store the file holds. */
const versionsIn = (path: string) =>
  inFile(path, (db) => {
    const rows = db.prepare('SELECT store, version FROM schema_versions').all() as {
      store: string;
      version: number;
    }[];
    return Object.fromEntries(rows.map((row) => [row.store, row.version]));
  });

const columnsOf = (path: string, table: string) =>
  inFile(path, (db) =>
    (db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as { name: string }[])
      .map((column) => column.name)
      .sort(),
  );

const hasTable = (path: string, table: string) =>
  inFile(path, (db) =>
    Boolean(db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').pluck().get(table)),
  );

describe('one SQLite helper for every store', () => {
  it('applies each migration once, in order, and only the new ones when the list grows', () => {
    const path = freshPath();
    const ran: number[] = [];
    const step =
      (n: number): Migration =>
      (db) => {
        ran.push(n);
        db.prepare('INSERT INTO steps (n) VALUES (?)').run(n);
      };
    const first = ['CREATE TABLE steps (n INTEGER NOT NULL)', step(2), step(3)];
    openStore(path, 'counting', first).close();
    openStore(path, 'counting', first).close();
    expect(ran).toEqual([2, 3]);
    expect(versionsIn(path)).toEqual({ counting: 3 });

    const file = openStore(path, 'counting', [...first, step(4)]);
    try {
      expect(ran).toEqual([2, 3, 4]);
      const kept = file.db.prepare('SELECT n FROM steps ORDER BY rowid').pluck().all();
      expect(kept).toEqual([2, 3, 4]);
    } finally {
      file.close();
    }
    expect(versionsIn(path)).toEqual({ counting: 4 });
  });

  it('rolls a failing migration back whole and leaves the version where it was', () => {
    const path = freshPath();
    const good = 'CREATE TABLE notes (text TEXT NOT NULL)';
    const failing: Migration = (db) => {
      db.exec("INSERT INTO notes (text) VALUES ('half done'); CREATE TABLE half_done (x)");
      throw new Error('the disk said no');
    };
    expect(() => openStore(path, 'notes', [good, failing])).toThrow('the disk said no');
    expect(versionsIn(path)).toEqual({ notes: 1 });
    expect(inFile(path, (db) => db.prepare('SELECT COUNT(*) FROM notes').pluck().get())).toBe(0);
    expect(hasTable(path, 'half_done')).toBe(false);
    // Mended, the step runs on the next open, from the version left.
    const mended = "INSERT INTO notes (text) VALUES ('done')";
    const file = openStore(path, 'notes', [good, mended]);
    try {
      expect(file.db.prepare('SELECT text FROM notes').pluck().all()).toEqual(['done']);
    } finally {
      file.close();
    }
    expect(versionsIn(path)).toEqual({ notes: 2 });
  });

  it('gives the stores of one file one connection, closed when the last of them closes', () => {
    const path = freshPath();
    const a = openStore(path, 'a', ['CREATE TABLE a (x)']);
    const b = openStore(path, 'b', ['CREATE TABLE b (x)']);
    expect(b.db).toBe(a.db);
    expect(versionsIn(path)).toEqual({ a: 1, b: 1 });
    a.close();
    a.close();
    expect(b.db.open).toBe(true);
    b.db.prepare('INSERT INTO b (x) VALUES (1)').run();
    b.close();
    expect(b.db.open).toBe(false);
    // The house's pragmas, and the file owner only.
    const again = openStore(path, 'a', ['CREATE TABLE a (x)']);
    try {
      expect(again.db).not.toBe(a.db);
      expect(again.db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(again.db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(again.db.pragma('busy_timeout', { simple: true })).toBe(5000);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(() => openStore(path, 'b', [], { synchronous: 'NORMAL' })).toThrow('synchronous');
    } finally {
      again.close();
    }
  });

  it('shares the activity log and the show ledger’s file, and memory is never shared', () => {
    const path = freshPath();
    const activity = new ActivityStore(path);
    const shows = new ShowStore(path);
    try {
      expect(versionsIn(path)).toEqual({ activity: 2, shows: 2 });
      activity.close();
      // The ledger still reads and writes once the log beside it has closed.
      const made = shows.createShow({
        key: 'show-1',
        name: 'Spring Show',
        date: '2026-04-01',
        createdAt: '2026-03-01T10:00:00Z',
        createdBy: 'olive',
      });
      expect(made.created).toBe(true);
    } finally {
      activity.close();
      shows.close();
    }
    const one = openStore(':memory:', 'm', ['CREATE TABLE m (x)']);
    const two = openStore(':memory:', 'm', ['CREATE TABLE m (x)']);
    expect(two.db).not.toBe(one.db);
    one.close();
    two.close();
  });

  it('migrates an activity log and a webhook ledger kept before versions, rows kept', () => {
    const path = freshPath();
    const old = new Database(path);
    old.exec(`CREATE TABLE activity (id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL,
        at_ms INTEGER NOT NULL, actor_name TEXT, actor_role TEXT, action TEXT NOT NULL,
        method TEXT NOT NULL, path TEXT NOT NULL, listing_id TEXT, bulk_job_id TEXT,
        changes TEXT NOT NULL, outcome TEXT NOT NULL, status INTEGER NOT NULL, code TEXT,
        request_id TEXT, message TEXT);
      INSERT INTO activity (at, at_ms, action, method, path, listing_id, changes, outcome, status)
        VALUES ('2026-01-02T03:04:05.000Z', 1767323045000, 'update', 'PATCH', '/v1/listings/lst_1',
          'lst_1', '{}', 'ok', 200);
      CREATE TABLE accepted_events (event_id TEXT PRIMARY KEY, topic TEXT NOT NULL,
        accepted_at TEXT NOT NULL);`);
    old.close();

    const activity = new ActivityStore(path);
    try {
      expect(activity.count()).toBe(1);
      activity.insert({
        at: '2026-01-03T00:00:00.000Z',
        actor: null,
        action: 'update',
        method: 'PATCH',
        path: '/v1/listings/lst_1',
        listingId: 'lst_1',
        bulkJobId: null,
        changes: { price: { before: '10.00', after: '9.00' } },
        outcome: 'ok',
        status: 200,
        code: null,
        message: 'kept',
        requestId: null,
        rule: { id: 7, name: 'Markdown', createdBy: 'olive' },
      });
      const [newest, oldest] = activity.list({ limit: 10 });
      expect(newest?.rule).toEqual({ id: 7, name: 'Markdown', createdBy: 'olive' });
      expect(oldest?.listingId).toBe('lst_1');
      expect(newest?.changes).toEqual({ price: { before: '10.00', after: '9.00' } });
    } finally {
      activity.close();
    }
    expect(columnsOf(path, 'activity')).toEqual(
      expect.arrayContaining(['message', 'rule_by', 'rule_id', 'rule_name']),
    );

    const ledger = new DeliveryLedger(path);
    try {
      const entry = {
        eventId: 'evt_1',
        signature: 'sig',
        bodyDigest: 'body',
        topic: 'order.created',
        test: true,
      };
      expect(ledger.claim(entry)).toBe(true);
      expect(ledger.find('evt_other', 'sig-other', 'body')).toEqual({ test: true });
    } finally {
      ledger.close();
    }
    expect(versionsIn(path)).toEqual({ activity: 2, deliveries: 3 });
  });

  it('carries the show ledger’s own version (show_schema) over, and drops it', () => {
    const path = freshPath();
    // A ledger of today's shape, at show_schema version 1: its tenders step must not run again.
    new ShowStore(path).close();
    const made = new Database(path);
    made.exec(`DELETE FROM schema_versions; CREATE TABLE show_schema (version INTEGER NOT NULL);
      INSERT INTO show_schema (version) VALUES (1);`);
    made.close();
    const store = new ShowStore(path);
    try {
      expect(store.shows(5)).toEqual([]);
    } finally {
      store.close();
    }
    expect(versionsIn(path)).toEqual({ shows: 2 });
    expect(hasTable(path, 'show_schema')).toBe(false);
  });

  it('opens a sandbox store counted by user_version without running its steps again', () => {
    const path = freshPath();
    const old = new Database(path);
    for (const sql of sandboxMigrations) old.exec(sql);
    old.pragma(`user_version = ${sandboxMigrations.length}`);
    old.prepare("INSERT INTO meta (key, value) VALUES ('epoch', 'kept')").run();
    old.close();
    const store = createStore(path);
    try {
      expect(store.db.prepare("SELECT value FROM meta WHERE key = 'epoch'").pluck().get()).toBe(
        'kept',
      );
    } finally {
      store.close();
    }
    expect(versionsIn(path)).toEqual({ sandbox: sandboxMigrations.length });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('adds a column a file kept before versions lacks, and leaves one it has', () => {
    const path = freshPath();
    const old = new Database(path);
    old.exec('CREATE TABLE t (a TEXT, b TEXT)');
    old.close();
    const file = openStore(path, 't', [
      'CREATE TABLE IF NOT EXISTS t (a TEXT)',
      addColumns('t', ['b TEXT', 'c TEXT']),
    ]);
    file.close();
    expect(columnsOf(path, 't')).toEqual(['a', 'b', 'c']);
  });
});
