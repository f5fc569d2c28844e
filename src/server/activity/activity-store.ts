import { addColumns } from '../../shared/sqlite/migrate';
import { SqliteStore } from '../sqlite-store';

// The activity log on disk: every SQL statement of the log is in this module.
export type Scalar = string | number | boolean | null;

export type ActivityAction =
  'create' | 'update' | 'deactivate' | 'reactivate' | 'status_change' | 'other';
export type ActivityChanges = Record<string, { before?: Scalar; after?: Scalar }>;

/** One recorded write, as the activity API answers it (`actor` null: sign-in was off). */
export interface ActivityEntry {
  id: number;
  at: string;
  actor: { name: string; role: string } | null;
  action: ActivityAction;
  method: string;
  path: string;
  listingId: string | null;
  bulkJobId: string | null;
  changes: ActivityChanges;
  outcome: 'ok' | 'refused' | 'failed';
  /** The upstream's status; 0 when it could not be reached. */
  status: number;
  code: string | null;
  /** What the marketplace said about a refused write (absent on older rows). */
  message?: string | null;
  requestId: string | null;
  /** The pricing rule that made the write, and who created it. */
  rule?: { id: number; name: string; createdBy: string | null } | null;
}

/** `person` null: sign-in off; `from`..`to` epoch ms, end excluded; `before` an id (next page). */
export interface ActivityFilter {
  person?: string | null | undefined;
  listing?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  before?: number | undefined;
  limit: number;
}

// Each listing write a person (not a rule) made and the marketplace took.
const PERSON_EDIT = `rule_id IS NULL AND outcome = 'ok'
  AND action IN ('update', 'reactivate', 'status_change', 'deactivate')`;

// A row as the entry's JSON: unreadable changes (a row written by hand) as none, no empty message.
const ENTRY = `json_patch(json_object('id', id, 'at', at, 'action', action, 'method', method,
    'path', path, 'listingId', listing_id, 'bulkJobId', bulk_job_id,
    'changes', iif(json_valid(changes), json(changes), json_object()),
    'outcome', outcome, 'status', status, 'code', code, 'requestId', request_id,
    'actor', iif(actor_name IS NULL, NULL,
      json_object('name', actor_name, 'role', coalesce(actor_role, ''))),
    'rule', iif(rule_id IS NULL, NULL,
      json_object('id', rule_id, 'name', coalesce(rule_name, ''), 'createdBy', rule_by))),
  json_object('message', nullif(message, '')))`;

// Each filter's test; `IS`: a person's name, or null for the writes made with sign-in off.
const TESTS: Record<string, string> = {
  person: 'actor_name IS @person',
  listing: 'listing_id = @listing',
  from: 'at_ms >= @from',
  to: 'at_ms < @to',
  before: 'id < @before',
};

export class ActivityStore extends SqliteStore {
  constructor(path: string) {
    // Who changed what, and when: the seller's own, like the accounts file.
    super(path, 'activity', [
      `CREATE TABLE IF NOT EXISTS activity (
         id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, at_ms INTEGER NOT NULL,
         actor_name TEXT, actor_role TEXT, action TEXT NOT NULL, method TEXT NOT NULL,
         path TEXT NOT NULL, listing_id TEXT, bulk_job_id TEXT, changes TEXT NOT NULL,
         outcome TEXT NOT NULL, status INTEGER NOT NULL, code TEXT, request_id TEXT
       );
       CREATE INDEX IF NOT EXISTS activity_by_listing ON activity (listing_id, id);
       CREATE INDEX IF NOT EXISTS activity_by_actor ON activity (actor_name, id);
       CREATE INDEX IF NOT EXISTS activity_by_time ON activity (at_ms);`,
      // Logs kept before the marketplace's message or pricing rules were recorded gain the columns.
      addColumns('activity', ['message TEXT', 'rule_id INTEGER', 'rule_name TEXT', 'rule_by TEXT']),
    ]);
  }

  insert(entry: Omit<ActivityEntry, 'id'>): number {
    const { actor, rule } = entry;
    const result = this.sql(
      `INSERT INTO activity (at, at_ms, actor_name, actor_role, action, method, path, listing_id,
         bulk_job_id, changes, outcome, status, code, message, request_id, rule_id, rule_name,
         rule_by)
       VALUES (@at, @at_ms, @actor_name, @actor_role, @action, @method, @path, @listingId,
         @bulkJobId, @changes, @outcome, @status, @code, @message, @requestId, @rule_id,
         @rule_name, @rule_by)`,
    ).run({
      ...entry,
      at_ms: Date.parse(entry.at),
      actor_name: actor?.name ?? null,
      actor_role: actor?.role ?? null,
      changes: JSON.stringify(entry.changes),
      message: entry.message ?? null,
      rule_id: rule?.id ?? null,
      rule_name: rule?.name ?? null,
      rule_by: rule?.createdBy ?? null,
    });
    return Number(result.lastInsertRowid);
  }

  /** Entries matching the filter, newest first. */
  list(filter: ActivityFilter): ActivityEntry[] {
    const { limit, ...tests } = filter;
    const given = Object.entries(tests).filter(([, value]) => value !== undefined);
    const where = given.length ? `WHERE ${given.map(([name]) => TESTS[name]).join(' AND ')}` : '';
    const sql = `SELECT ${ENTRY} FROM activity ${where} ORDER BY id DESC LIMIT @limit`;
    const rows = this.sql(sql)
      .pluck()
      .all({ ...Object.fromEntries(given), limit }) as string[];
    return rows.map((row) => JSON.parse(row) as ActivityEntry);
  }

  people(): string[] {
    const sql = 'SELECT DISTINCT actor_name FROM activity WHERE actor_name IS NOT NULL ORDER BY 1';
    return this.sql(sql).pluck().all() as string[];
  }

  /** Listing id → epoch ms of a person's newest accepted change since `since`. */
  personEdits(since: number): Map<string, number> {
    const sql = `SELECT listing_id AS id, MAX(at_ms) AS at FROM activity
      WHERE at_ms >= ? AND listing_id IS NOT NULL AND ${PERSON_EDIT} GROUP BY listing_id`;
    const rows = this.sql(sql).all(since) as { id: string; at: number }[];
    return new Map(rows.map((row) => [row.id, row.at]));
  }

  /** Epoch ms of a person's newest accepted change to one listing since `since`, if any. */
  personEditSince(listingId: string, since: number): number | undefined {
    const sql = `SELECT MAX(at_ms) AS at FROM activity
      WHERE listing_id = ? AND at_ms >= ? AND ${PERSON_EDIT}`;
    return (this.sql(sql).pluck().get(listingId, since) as number | null) ?? undefined;
  }

  count(): number {
    return this.sql('SELECT COUNT(*) FROM activity').pluck().get() as number;
  }
}
