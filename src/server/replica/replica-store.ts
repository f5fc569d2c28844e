import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { HubFeedFailure, HubFeedHead } from '../../client/hub-feed-answer';
import { asciiJsonText, asciiRows } from '../../shared/ascii-json';
import { SqliteStore } from '../sqlite-store';

/** The hub's copy of the seller's store and its change feed: every SQL statement of the replica. */

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
  /** The hub's change number of the row's last change (one monotonic counter, never a clock). */
  change: number;
  /** The record's own `updated_at` (the API's clock), when it has one. */
  updatedAt: string | null;
  body: Record<string, unknown>;
}

/** Whether a whole walk finished, and the API's time at or before the last read began. */
interface CollectionState {
  filled: boolean;
  syncedAt: string | null;
}

type DegradedEntry = HubFeedHead['setAside'][number] & { firstSeen: string };

type RowRecord = Omit<ReplicaRow, 'body'> & { body: string; at: number };

/** How a record was taken: applied, left as it was (older, or the same), or of no row kept. */
type PutOutcome = 'applied' | 'left' | 'unknown';
interface PutOptions {
  updatedAt: string | null;
  whole?: boolean;
  create?: boolean;
}

/** Whether `incoming` is older than `current` by the records' own `updated_at`. */
function olderThan(incoming: string | null, current: string | null): boolean {
  if (incoming === null || current === null) return false;
  const [a, b] = [Date.parse(incoming), Date.parse(current)];
  return !Number.isNaN(a) && !Number.isNaN(b) && a < b;
}

// Bodies are JSON in ASCII, as the feed sends them; a degraded record is set aside by id.
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

const UNSET_ASIDE = 'DELETE FROM replica_degraded WHERE collection = ? AND id = ?';
const ROW = 'id, change, updated_at AS updatedAt, body FROM replica_rows WHERE collection = ?';
/** A page (LIMIT -1: all) after a rowid (a snapshot's order) or after a change number. */
const PAGE = {
  rowid: `SELECT rowid AS at, ${ROW} AND rowid > ? ORDER BY rowid LIMIT ?`,
  change: `SELECT change AS at, ${ROW} AND change > ? ORDER BY change LIMIT ?`,
};

export class ReplicaStore extends SqliteStore {
  /** The change counter while a page is taken (written back once, as its transaction ends). */
  private batch: { change: number } | undefined;

  constructor(path: string) {
    super(path, 'replica', [SCHEMA]);
  }

  private record(collection: ReplicaCollection, id: string): RowRecord | undefined {
    return this.sql(`SELECT 0 AS at, ${ROW} AND id = ?`).get(collection, id) as
      RowRecord | undefined;
  }

  /** The bodies of `ids` held whole (none set aside), in their order: a page's few rows. */
  wholeBodies(collection: ReplicaCollection, ids: readonly string[]): Record<string, unknown>[] {
    const aside = new Set(this.degraded(collection).map((entry) => entry.id));
    return ids.flatMap((id) => {
      const record = aside.has(id) ? undefined : this.record(collection, id);
      return record ? [bodyOf(record.body)] : [];
    });
  }

  changeNumber(): number {
    return this.batch?.change ?? Number(this.meta('change') ?? 0);
  }

  private nextChange(): number {
    if (this.batch) return ++this.batch.change;
    const next = this.changeNumber() + 1;
    this.setMeta('change', String(next));
    return next;
  }

  row(collection: ReplicaCollection, id: string): ReplicaRow | undefined {
    const record = this.record(collection, id);
    return record ? rowOf(record) : undefined;
  }

  /**
   * Sets a record newest-wins by `updatedAt` (the same again keeps its change number). `whole`:
   * its body as read, no longer set aside, the hub's own notes (`slabdesk_…`) kept until it notes
   * again; else its fields over the row's, `unknown` with no row unless `create`.
   */
  put(
    collection: ReplicaCollection,
    id: string,
    fields: Record<string, unknown>,
    { updatedAt, whole = false, create = whole }: PutOptions,
  ): PutOutcome {
    const current = this.record(collection, id);
    if (whole) this.sql(UNSET_ASIDE).run(collection, id);
    if (!current && !create) return 'unknown';
    if (current && olderThan(updatedAt, current.updatedAt)) return 'left';
    const kept = current && (whole ? ownNotes(current.body) : bodyOf(current.body));
    const text = asciiJsonText(whole ? { ...fields, ...kept } : { ...kept, ...fields });
    if (current?.body === text) return 'left';
    const change = this.nextChange();
    const sql = `INSERT INTO replica_rows (collection, id, change, updated_at, body)
      VALUES (?, ?, ?, ?, ?) ON CONFLICT (collection, id) DO UPDATE SET change = excluded.change,
      updated_at = excluded.updated_at, body = excluded.body`;
    this.sql(sql).run(collection, id, change, updatedAt ?? current?.updatedAt ?? null, text);
    return 'applied';
  }

  putMany(
    collection: ReplicaCollection,
    records: readonly { id: string; body: Record<string, unknown>; updatedAt: string | null }[],
  ): number {
    // One transaction, the change counter written once at its end.
    return this.db.transaction(() => {
      const batch = (this.batch = { change: this.changeNumber() });
      try {
        return records.filter(
          ({ id, body, updatedAt }) =>
            this.put(collection, id, body, { updatedAt, whole: true }) === 'applied',
        ).length;
      } finally {
        this.batch = undefined;
        this.setMeta('change', String(batch.change));
      }
    })();
  }

  /** The collection's rows changed after change number `change` (0: every row), in change order. */
  changedSince(collection: ReplicaCollection, change: number): ReplicaRow[] {
    return (this.sql(PAGE.change).all(collection, change, -1) as RowRecord[]).map(rowOf);
  }

  /** This replica's name, made once with its file: a copy of another replica is not ours. */
  identity(): string {
    let id = this.meta('identity');
    if (!id) this.setMeta('identity', (id = randomUUID()));
    return id;
  }

  count(collection: ReplicaCollection): number {
    const sql = 'SELECT COUNT(*) FROM replica_rows WHERE collection = ?';
    return this.sql(sql).pluck().get(collection) as number;
  }

  /** A record the API could not read: kept by id, with when it was last seen. */
  setAside(
    collection: ReplicaCollection,
    { id, code, message }: { id: string; code: string; message: string },
    at: string,
  ): void {
    const sql = `INSERT INTO replica_degraded (collection, id, code, message, first_seen, last_seen)
      VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (collection, id) DO UPDATE SET
        code = excluded.code, message = excluded.message, last_seen = excluded.last_seen`;
    this.sql(sql).run(collection, id, code, message, at, at);
  }

  degraded(collection: ReplicaCollection): DegradedEntry[] {
    const sql = `SELECT id, code, message, first_seen AS firstSeen, last_seen AS seenAt
      FROM replica_degraded WHERE collection = ? ORDER BY id`;
    return this.sql(sql).all(collection) as DegradedEntry[];
  }

  state(collection: ReplicaCollection): CollectionState {
    const sql = 'SELECT filled, synced_at AS syncedAt FROM replica_state WHERE collection = ?';
    const row = this.sql(sql).get(collection) as
      { filled: number; syncedAt: string | null } | undefined;
    return { filled: row?.filled === 1, syncedAt: row?.syncedAt ?? null };
  }

  markFilled(collection: ReplicaCollection, syncedAt: string | null): void {
    const sql =
      'INSERT OR REPLACE INTO replica_state (collection, filled, synced_at) VALUES (?, 1, ?)';
    this.sql(sql).run(collection, syncedAt);
  }

  /** A value the replica keeps about itself (change number, epoch, the store's fingerprint). */
  meta(key: string): string | undefined {
    return this.sql('SELECT value FROM replica_meta WHERE key = ?').pluck().get(key) as
      string | undefined;
  }

  setMeta(key: string, value: string): void {
    this.sql('INSERT OR REPLACE INTO replica_meta (key, value) VALUES (?, ?)').run(key, value);
  }

  /** The store was reset: its rows and read states go; the change number goes on, the epoch up. */
  forgetAll(): void {
    this.db.transaction(() => {
      this.db.exec(
        `DELETE FROM replica_rows; DELETE FROM replica_degraded; DELETE FROM replica_state;
         DELETE FROM replica_meta WHERE key = 'fingerprint';`,
      );
      this.setMeta('epoch', String(this.epoch() + 1));
      this.nextChange();
    })();
  }

  epoch(): number {
    return Number(this.meta('epoch') ?? 0);
  }

  /** A feed page as stored (JSON text): a snapshot's after a rowid, or the changes after one. */
  feedPage(collection: ReplicaCollection, by: keyof typeof PAGE, after: number, limit: number) {
    const records = this.sql(PAGE[by]).all(collection, after, limit) as RowRecord[];
    return { bodies: records.map((r) => r.body), last: records.at(-1)?.at };
  }
}

/** The hub's own notes on a stored row (`slabdesk_…` fields), none for most rows. */
function ownNotes(body: string): Record<string, unknown> {
  if (!body.includes('"slabdesk_')) return {};
  const notes = Object.entries(bodyOf(body));
  return Object.fromEntries(notes.filter(([key]) => key.startsWith('slabdesk_')));
}

const bodyOf = (text: string) => JSON.parse(text) as Record<string, unknown>;

function rowOf({ at: _at, ...record }: RowRecord): ReplicaRow {
  return { ...record, body: bodyOf(record.body) };
}

/** Rows in one feed answer: a page of a snapshot shows while the next is read. */
const FEED_PAGE_ROWS = 5_000;

const Count = z.int().nonnegative();
// Up to date with change `change`, or part way through a snapshot taken at `snapshot`.
const Cursor = z.object({
  replica: z.string(),
  epoch: Count,
  at: z.union([z.object({ change: Count }), z.object({ snapshot: Count, after: Count })]),
});
type Cursor = z.infer<typeof Cursor>;

/** The cursor a browser sent back, or undefined when it is not one of ours (a snapshot then). */
export function decodeCursor(text: string | undefined): Cursor | undefined {
  if (!text || text.length > 512) return undefined;
  try {
    return Cursor.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))).data;
  } catch {
    return undefined;
  }
}

/** Whether a cursor is of this replica and epoch (another's is answered with a snapshot). */
export const isOurs = (store: ReplicaStore, sent: Cursor | undefined): sent is Cursor =>
  sent !== undefined && sent.replica === store.identity() && sent.epoch === store.epoch();

/** The feed's answer to `sent`: a snapshot in pages, then the changes since (none ours: a snapshot). */
export function feedAnswer(
  store: ReplicaStore,
  collection: ReplicaCollection,
  sent: Cursor | undefined,
  failure: HubFeedFailure | null,
  limit = FEED_PAGE_ROWS,
): { page: HubFeedHead; rows: string[] } {
  const [replica, epoch, change] = [store.identity(), store.epoch(), store.changeNumber()];
  const ours = isOurs(store, sent);
  const at: Cursor['at'] = ours ? sent.at : { snapshot: change, after: 0 };
  const snapshot = 'snapshot' in at;
  const read = store.feedPage(
    collection,
    snapshot ? 'rowid' : 'change',
    snapshot ? at.after : at.change,
    limit,
  );
  let more = read.bodies.length === limit;
  let next: Cursor['at'];
  if (snapshot) {
    // The snapshot's last page: next come the changes made since it began (more if any were).
    next = more ? { snapshot: at.snapshot, after: read.last ?? at.after } : { change: at.snapshot };
    more ||= change > at.snapshot;
  } else {
    // No row of this collection changed since: the browser stands at the newest number.
    next = { change: read.last ?? Math.max(at.change, change) };
  }
  const { filled, syncedAt } = store.state(collection);
  const cursor = Buffer.from(JSON.stringify({ replica, epoch, at: next })).toString('base64url');
  const page: HubFeedHead = {
    whole: !ours || (snapshot && at.after === 0),
    more,
    cursor,
    change,
    filled,
    syncedAt,
    failure: filled ? null : failure,
    setAside: store.degraded(collection).map(({ firstSeen: _first, ...entry }) => entry),
  };
  return { rows: read.bodies, page };
}

/** The answer's JSON in ASCII (see shared/ascii-json): its head, its rows spliced in as stored. */
export const feedBody = ({ page, rows }: { page: HubFeedHead; rows: string[] }): Buffer =>
  asciiRows(`${asciiJsonText(page).slice(0, -1)},"rows":[`, rows);
