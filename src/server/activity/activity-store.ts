import type Database from 'better-sqlite3';
import { addColumns } from '../../shared/sqlite/migrate';
import { openStore, type StoreFile } from '../../shared/sqlite/open-store';

// The activity log on disk: every SQL statement of the log is in this module.
export type Scalar = string | number | boolean | null;

export type ActivityAction =
  'create' | 'update' | 'deactivate' | 'reactivate' | 'status_change' | 'other';
export type ActivityOutcome = 'ok' | 'refused' | 'failed';
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
  outcome: ActivityOutcome;
  /** The upstream's status; 0 when it could not be reached. */
  status: number;
  code: string | null;
  /** What the marketplace said about a refused write (absent on older rows). */
  message?: string | null;
  requestId: string | null;
  /** The pricing rule that made the write, and who created it. */
  rule?: { id: number; name: string; createdBy: string | null } | null;
}

export type NewActivityEntry = Omit<ActivityEntry, 'id'>;

/** `person` null: sign-in off; `from`..`to` epoch ms, end excluded; `before` an id (next page). */
export interface ActivityFilter {
  person?: string | null | undefined;
  listingId?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  before?: number | undefined;
  limit: number;
}

interface Row {
  id: number;
  at: string;
  actor_name: string | null;
  actor_role: string | null;
  action: ActivityAction;
  method: string;
  path: string;
  listing_id: string | null;
  bulk_job_id: string | null;
  changes: string;
  outcome: ActivityOutcome;
  status: number;
  code: string | null;
  message: string | null;
  request_id: string | null;
  rule_id: number | null;
  rule_name: string | null;
  rule_by: string | null;
}

function entryOf(row: Row): ActivityEntry {
  let changes: ActivityChanges = {};
  try {
    changes = JSON.parse(row.changes) as ActivityChanges;
  } catch {
    // A row written by hand: shown without its changes.
  }
  return {
    id: row.id,
    at: row.at,
    actor: row.actor_name === null ? null : { name: row.actor_name, role: row.actor_role ?? '' },
    action: row.action,
    method: row.method,
    path: row.path,
    listingId: row.listing_id,
    bulkJobId: row.bulk_job_id,
    changes,
    outcome: row.outcome,
    status: row.status,
    code: row.code,
    ...(row.message ? { message: row.message } : {}),
    requestId: row.request_id,
    rule:
      row.rule_id === null
        ? null
        : { id: row.rule_id, name: row.rule_name ?? '', createdBy: row.rule_by },
  };
}

export class ActivityStore {
  private readonly file: StoreFile;
  private readonly db: Database.Database;
  private readonly insertStatement: Database.Statement;
  private readonly peopleStatement: Database.Statement<[], { actor_name: string }>;
  private readonly personEditsStatement: Database.Statement<[number], { id: string; at: number }>;
  private readonly personEditStatement: Database.Statement<[string, number], { at: number | null }>;
  private readonly countStatement: Database.Statement<[], { n: number }>;
  // By their SQL: a handful, one per combination of filters.
  private readonly listStatements = new Map<string, Database.Statement>();

  constructor(path: string) {
    // Who changed what, and when: the seller's own, like the accounts file.
    this.file = openStore(path, 'activity', [
      `CREATE TABLE IF NOT EXISTS activity (
         id INTEGER PRIMARY KEY AUTOINCREMENT,
         at TEXT NOT NULL,
         at_ms INTEGER NOT NULL,
         actor_name TEXT,
         actor_role TEXT,
         action TEXT NOT NULL,
         method TEXT NOT NULL,
         path TEXT NOT NULL,
         listing_id TEXT,
         bulk_job_id TEXT,
         changes TEXT NOT NULL,
         outcome TEXT NOT NULL,
         status INTEGER NOT NULL,
         code TEXT,
         request_id TEXT
       );
       CREATE INDEX IF NOT EXISTS activity_by_listing ON activity (listing_id, id);
       CREATE INDEX IF NOT EXISTS activity_by_actor ON activity (actor_name, id);
       CREATE INDEX IF NOT EXISTS activity_by_time ON activity (at_ms);`,
      // Logs kept before the marketplace's message or pricing rules were recorded gain the columns.
      addColumns('activity', ['message TEXT', 'rule_id INTEGER', 'rule_name TEXT', 'rule_by TEXT']),
    ]);
    this.db = this.file.db;
    this.insertStatement = this.db.prepare(
      `INSERT INTO activity (at, at_ms, actor_name, actor_role, action, method, path, listing_id,
         bulk_job_id, changes, outcome, status, code, message, request_id, rule_id, rule_name,
         rule_by)
       VALUES (@at, @at_ms, @actor_name, @actor_role, @action, @method, @path, @listing_id,
         @bulk_job_id, @changes, @outcome, @status, @code, @message, @request_id, @rule_id,
         @rule_name, @rule_by)`,
    );
    this.peopleStatement = this.db.prepare(
      'SELECT DISTINCT actor_name FROM activity WHERE actor_name IS NOT NULL ORDER BY 1',
    );
    this.personEditsStatement = this.db.prepare(
      `SELECT listing_id AS id, MAX(at_ms) AS at FROM activity
       WHERE at_ms >= ? AND listing_id IS NOT NULL AND rule_id IS NULL AND outcome = 'ok'
         AND action IN ('update', 'reactivate', 'status_change', 'deactivate')
       GROUP BY listing_id`,
    );
    this.personEditStatement = this.db.prepare(
      `SELECT MAX(at_ms) AS at FROM activity
       WHERE listing_id = ? AND at_ms >= ? AND rule_id IS NULL AND outcome = 'ok'
         AND action IN ('update', 'reactivate', 'status_change', 'deactivate')`,
    );
    this.countStatement = this.db.prepare('SELECT COUNT(*) AS n FROM activity');
  }

  insert(entry: NewActivityEntry): number {
    const result = this.insertStatement.run({
      at: entry.at,
      at_ms: Date.parse(entry.at),
      actor_name: entry.actor?.name ?? null,
      actor_role: entry.actor?.role ?? null,
      action: entry.action,
      method: entry.method,
      path: entry.path,
      listing_id: entry.listingId,
      bulk_job_id: entry.bulkJobId,
      changes: JSON.stringify(entry.changes),
      outcome: entry.outcome,
      status: entry.status,
      code: entry.code,
      message: entry.message ?? null,
      request_id: entry.requestId,
      rule_id: entry.rule?.id ?? null,
      rule_name: entry.rule?.name ?? null,
      rule_by: entry.rule?.createdBy ?? null,
    });
    return Number(result.lastInsertRowid);
  }

  /** Entries matching the filter, newest first. */
  list(filter: ActivityFilter): ActivityEntry[] {
    const where: string[] = [];
    const params: Record<string, string | number> = { limit: filter.limit };
    if (filter.person === null) where.push('actor_name IS NULL');
    else if (filter.person !== undefined) {
      where.push('actor_name = @person');
      params.person = filter.person;
    }
    if (filter.listingId !== undefined) {
      where.push('listing_id = @listing');
      params.listing = filter.listingId;
    }
    if (filter.from !== undefined) {
      where.push('at_ms >= @from');
      params.from = filter.from;
    }
    if (filter.to !== undefined) {
      where.push('at_ms < @to');
      params.to = filter.to;
    }
    if (filter.before !== undefined) {
      where.push('id < @before');
      params.before = filter.before;
    }
    const sql = `SELECT * FROM activity ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
                 ORDER BY id DESC LIMIT @limit`;
    let statement = this.listStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.listStatements.set(sql, statement);
    }
    return (statement.all(params) as Row[]).map(entryOf);
  }

  people(): string[] {
    return this.peopleStatement.all().map((row) => row.actor_name);
  }

  /** Listing id → epoch ms of a person's newest accepted change since `since` (not a rule's). */
  personEdits(since: number): Map<string, number> {
    const rows = this.personEditsStatement.all(since);
    return new Map(rows.map((row) => [row.id, row.at]));
  }

  /** Epoch ms of a person's newest accepted change to one listing since `since`, if any. */
  personEditSince(listingId: string, since: number): number | undefined {
    return this.personEditStatement.get(listingId, since)?.at ?? undefined;
  }

  count(): number {
    return this.countStatement.get()?.n ?? 0;
  }

  close(): void {
    this.file.close();
  }
}
