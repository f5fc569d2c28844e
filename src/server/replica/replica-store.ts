import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { asciiJsonText } from '../../shared/ascii-json';
import { openStore, type StoreFile } from '../../shared/sqlite/open-store';

/**
 * The seller's store as the hub keeps it, every SQL statement of the replica: each body JSON in
 * ASCII (as the feed sends it), each row with a change number of one monotonic counter (never a
 * clock); a degraded record set aside by id, with when it was last seen, until read whole.
 */

export const REPLICA_COLLECTIONS = [
  'listings',
  'orders',
  'inventory_items',
  'inventory_levels',
  'locations',
] as const;
export type ReplicaCollection = (typeof REPLICA_COLLECTIONS)[number];

export interface ReplicaRow {
  id: string;
  /** The hub's change number of this row's last change. */
  change: number;
  /** The record's own `updated_at` (the API's clock), when it has one. */
  updatedAt: string | null;
  body: Record<string, unknown>;
}

export interface DegradedEntry {
  collection: ReplicaCollection;
  id: string;
  code: string;
  message: string;
  firstSeen: string;
  lastSeen: string;
}

/** Whether a whole walk finished, and the API's time at or before the last read began. */
export interface CollectionState {
  filled: boolean;
  syncedAt: string | null;
}

type RowRecord = Omit<ReplicaRow, 'body'> & { body: string };

/** How a row was taken: applied (its change number), or left as it was (older, or the same). */
export type PutOutcome = { applied: true; change: number } | { applied: false };

/** Whether `incoming` is older than `current` by the records' own `updated_at`. */
function olderThan(incoming: string | null, current: string | null): boolean {
  if (incoming === null || current === null) return false;
  const [a, b] = [Date.parse(incoming), Date.parse(current)];
  return !Number.isNaN(a) && !Number.isNaN(b) && a < b;
}

const SCHEMA = `CREATE TABLE IF NOT EXISTS replica_rows (
    collection TEXT NOT NULL, id TEXT NOT NULL, change INTEGER NOT NULL, updated_at TEXT,
    body TEXT NOT NULL, PRIMARY KEY (collection, id)
  );
  CREATE INDEX IF NOT EXISTS replica_rows_by_change ON replica_rows (collection, change);
  CREATE TABLE IF NOT EXISTS replica_degraded (
    collection TEXT NOT NULL, id TEXT NOT NULL, code TEXT NOT NULL, message TEXT NOT NULL,
    first_seen TEXT NOT NULL, last_seen TEXT NOT NULL, PRIMARY KEY (collection, id)
  );
  CREATE TABLE IF NOT EXISTS replica_state (
    collection TEXT PRIMARY KEY, filled INTEGER NOT NULL DEFAULT 0, synced_at TEXT
  );
  CREATE TABLE IF NOT EXISTS replica_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`;

const ROW = 'SELECT id, change, updated_at AS updatedAt, body FROM replica_rows';

export class ReplicaStore {
  private readonly file: StoreFile;
  private readonly db: Database.Database;
  private readonly statements;

  constructor(path: string) {
    this.file = openStore(path, 'replica', [SCHEMA]);
    const db = (this.db = this.file.db);
    type Page = [string, number, number];
    this.statements = {
      row: db.prepare<[string, string], RowRecord>(`${ROW} WHERE collection = ? AND id = ?`),
      put: db.prepare(
        `INSERT INTO replica_rows (collection, id, change, updated_at, body) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (collection, id) DO UPDATE SET
           change = excluded.change, updated_at = excluded.updated_at, body = excluded.body`,
      ),
      rows: db.prepare<[string], RowRecord>(`${ROW} WHERE collection = ? ORDER BY rowid`),
      since: db.prepare<[string, number], RowRecord>(
        `${ROW} WHERE collection = ? AND change > ? ORDER BY change`,
      ),
      snapshotPage: db.prepare<Page, { at: number; body: string }>(
        `SELECT rowid AS at, body FROM replica_rows
         WHERE collection = ? AND rowid > ? ORDER BY rowid LIMIT ?`,
      ),
      changesPage: db.prepare<Page, { at: number; body: string }>(
        `SELECT change AS at, body FROM replica_rows
         WHERE collection = ? AND change > ? ORDER BY change LIMIT ?`,
      ),
      count: db
        .prepare<[string], number>('SELECT COUNT(*) FROM replica_rows WHERE collection = ?')
        .pluck(),
      meta: db.prepare<[string], string>('SELECT value FROM replica_meta WHERE key = ?').pluck(),
      setMeta: db.prepare(
        `INSERT INTO replica_meta (key, value) VALUES (?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      ),
      setAside: db.prepare(
        `INSERT INTO replica_degraded (collection, id, code, message, first_seen, last_seen)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (collection, id) DO UPDATE SET
           code = excluded.code, message = excluded.message, last_seen = excluded.last_seen`,
      ),
      whole: db.prepare('DELETE FROM replica_degraded WHERE collection = ? AND id = ?'),
      degraded: db.prepare<[], DegradedEntry>(
        `SELECT collection, id, code, message, first_seen AS firstSeen, last_seen AS lastSeen
         FROM replica_degraded ORDER BY collection, id`,
      ),
      state: db.prepare<[string], { filled: number; syncedAt: string | null }>(
        'SELECT filled, synced_at AS syncedAt FROM replica_state WHERE collection = ?',
      ),
      setState: db.prepare(
        `INSERT INTO replica_state (collection, filled, synced_at) VALUES (?, ?, ?)
         ON CONFLICT (collection) DO UPDATE SET
           filled = excluded.filled, synced_at = excluded.synced_at`,
      ),
    };
  }

  /** The newest change number given (0: none yet). */
  changeNumber(): number {
    return Number(this.meta('change') ?? 0);
  }

  private nextChange(): number {
    const next = this.changeNumber() + 1;
    this.setMeta('change', String(next));
    return next;
  }

  row(collection: ReplicaCollection, id: string): ReplicaRow | undefined {
    const record = this.statements.row.get(collection, id);
    return record ? rowOf(record) : undefined;
  }

  /** Takes a whole record newest-wins (the same again keeps its number), no longer set aside. */
  put(
    collection: ReplicaCollection,
    id: string,
    body: Record<string, unknown>,
    updatedAt: string | null,
  ): PutOutcome {
    const current = this.statements.row.get(collection, id);
    this.statements.whole.run(collection, id);
    if (current && olderThan(updatedAt, current.updatedAt)) return { applied: false };
    // What the hub noted on the row (`slabdesk_…`) stays until it notes again.
    const text = asciiJsonText(current ? { ...body, ...ownNotes(current.body) } : body);
    return this.write(collection, id, current, text, updatedAt);
  }

  /** Sets a record's fields newest-wins; `unknown` with no row and fields not a whole record. */
  patch(
    collection: ReplicaCollection,
    id: string,
    fields: Record<string, unknown>,
    options: { updatedAt: string | null; whole: boolean },
  ): PutOutcome | 'unknown' {
    const current = this.statements.row.get(collection, id);
    if (!current && !options.whole) return 'unknown';
    if (current && olderThan(options.updatedAt, current.updatedAt)) return { applied: false };
    const before = current ? (JSON.parse(current.body) as Record<string, unknown>) : {};
    return this.write(
      collection,
      id,
      current,
      asciiJsonText({ ...before, ...fields }),
      options.updatedAt,
    );
  }

  private write(
    collection: ReplicaCollection,
    id: string,
    current: RowRecord | undefined,
    text: string,
    updatedAt: string | null,
  ): PutOutcome {
    if (current && current.body === text) return { applied: false };
    const change = this.nextChange();
    this.statements.put.run(collection, id, change, updatedAt ?? current?.updatedAt ?? null, text);
    return { applied: true, change };
  }

  /** Many records in one transaction (a page of a walk); how many changed. */
  putMany(
    collection: ReplicaCollection,
    records: readonly { id: string; body: object; updatedAt: string | null }[],
  ): number {
    const putAll = this.db.transaction(
      () =>
        records.filter(
          ({ id, body, updatedAt }) =>
            this.put(collection, id, body as Record<string, unknown>, updatedAt).applied,
        ).length,
    );
    return putAll();
  }

  rows(collection: ReplicaCollection): ReplicaRow[] {
    return this.statements.rows.all(collection).map(rowOf);
  }

  /** The rows changed after `change`, oldest change first. */
  changedSince(collection: ReplicaCollection, change: number): ReplicaRow[] {
    return this.statements.since.all(collection, change).map(rowOf);
  }

  /** A page as stored (JSON text): a snapshot's after a rowid, or the changes after a number. */
  feedPage(
    collection: ReplicaCollection,
    from: { snapshotAfter: number } | { changedAfter: number },
    limit: number,
  ): { bodies: string[]; last: number | undefined } {
    const records =
      'snapshotAfter' in from
        ? this.statements.snapshotPage.all(collection, from.snapshotAfter, limit)
        : this.statements.changesPage.all(collection, from.changedAfter, limit);
    return { bodies: records.map((r) => r.body), last: records.at(-1)?.at };
  }

  /** This replica's name, made once with its file: a copy of another replica is not ours. */
  identity(): string {
    let id = this.meta('identity');
    if (!id) this.setMeta('identity', (id = randomUUID()));
    return id;
  }

  count(collection: ReplicaCollection): number {
    return this.statements.count.get(collection) ?? 0;
  }

  /** A record the API could not read: kept by id, with when it was last seen. */
  setAside(
    collection: ReplicaCollection,
    record: { id: string; code: string; message: string },
    at: string,
  ): void {
    this.statements.setAside.run(collection, record.id, record.code, record.message, at, at);
  }

  degraded(): DegradedEntry[] {
    return this.statements.degraded.all();
  }

  state(collection: ReplicaCollection): CollectionState {
    const row = this.statements.state.get(collection);
    return { filled: row?.filled === 1, syncedAt: row?.syncedAt ?? null };
  }

  setState(collection: ReplicaCollection, state: CollectionState): void {
    this.statements.setState.run(collection, state.filled ? 1 : 0, state.syncedAt);
  }

  /** A value the replica keeps about itself (the store's fingerprint). */
  meta(key: string): string | undefined {
    return this.statements.meta.get(key);
  }

  setMeta(key: string, value: string): void {
    this.statements.setMeta.run(key, value);
  }

  /** The store was reset: its rows and read states go; the change number goes on, the epoch up. */
  forgetAll(): void {
    this.db.transaction(() => {
      this.db.exec(
        `DELETE FROM replica_rows; DELETE FROM replica_degraded; DELETE FROM replica_state;
         DELETE FROM replica_meta WHERE key = 'fingerprint';`,
      );
      this.setMeta('epoch', String(Number(this.meta('epoch') ?? 0) + 1));
      this.nextChange();
    })();
  }

  close(): void {
    this.file.close();
  }
}

/** The hub's own notes on a stored row (`slabdesk_…` fields), none for most rows. */
function ownNotes(body: string): Record<string, unknown> {
  if (!body.includes('"slabdesk_')) return {};
  const notes = Object.entries(JSON.parse(body) as Record<string, unknown>);
  return Object.fromEntries(notes.filter(([key]) => key.startsWith('slabdesk_')));
}

function rowOf(record: RowRecord): ReplicaRow {
  return { ...record, body: JSON.parse(record.body) as Record<string, unknown> };
}
