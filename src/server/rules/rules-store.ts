import type Database from 'better-sqlite3';
import { SqliteStore } from '../sqlite-store';
import { RuleDefinition } from '../../shared/rule-definition';
import type { RunItem, RunRecord, StoredRule, WriteFields } from '../../shared/rule-answers';
import type { PlanItem, Sale } from './rule-plan';

export type { RunItem, RunRecord, StoredRule };
type TouchedListing = { listingId: string; ruleId: number; at: string; after: WriteFields };

/** The rules on disk: each write kept with its Idempotency-Key before it is sent (a restart resends). */

/** A definition that is not JSON (edited by hand) reads as null, and its rule is left out. */
const RULE = `SELECT id, CASE WHEN json_valid(definition) THEN definition END AS definition,
  enabled, created_by AS createdBy, created_at AS createdAt, updated_at AS updatedAt,
  deleted_at AS deletedAt FROM rules`;
/** A run with its items counted (`counts` as JSON) and its markdown summed. */
const RUN = `SELECT id, rule_id AS ruleId, trigger, status, by_name AS "by", started_at AS startedAt,
  finished_at AS finishedAt, note, resume_at AS resumeAt, attempts, undo_of AS undoOf,
  undone_by AS undoneBy, (SELECT json_object('changed', TOTAL(state = 'done'),
  'skipped', TOTAL(state = 'skipped'), 'failed', TOTAL(state = 'failed'),
  'pending', TOTAL(state = 'pending')) FROM rule_run_items WHERE run_id = rule_runs.id) AS counts,
  (SELECT TOTAL(CASE WHEN state = 'done' THEN markdown_cents END) FROM rule_run_items
  WHERE run_id = rule_runs.id) AS markdownCents FROM rule_runs`;
const ITEM = `SELECT run_id AS runId, listing_id AS listingId, title, state, reason, why, before,
  after, floor_cents AS floorCents, markdown_cents AS markdownCents, idem_key AS idempotencyKey,
  status, at FROM rule_run_items`;
/** A rule's changes that still stand: done, by a run (not an undo) that was not undone. */
const STANDING = `FROM rule_run_items i JOIN rule_runs r ON r.id = i.run_id
  WHERE i.state = 'done' AND r.trigger <> 'undo' AND r.undone_by IS NULL`;
const TOUCHED = 'SELECT i.listing_id AS listingId, r.rule_id AS ruleId, i.after';
const SALE = 'original_cents AS originalCents, sale_cents AS saleCents FROM rule_sales';

/** Every statement of the store, prepared once when first run. */
const STATEMENTS = {
  insertRule: `INSERT INTO rules (definition, enabled, created_by, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?)`,
  updateRule: 'UPDATE rules SET definition = ?, enabled = ?, updated_at = ? WHERE id = ?',
  // A deleted rule is kept (off, marked) so its runs stay readable in the history.
  deleteRule: 'UPDATE rules SET enabled = 0, deleted_at = ? WHERE id = ? AND deleted_at IS NULL',
  rule: `${RULE} WHERE id = ? AND deleted_at IS NULL`,
  anyRule: `${RULE} WHERE id = ?`,
  rules: `${RULE} WHERE deleted_at IS NULL ORDER BY id`,
  deletedRules: `${RULE} WHERE deleted_at IS NOT NULL ORDER BY deleted_at DESC LIMIT 50`,
  claimDay: `UPDATE rules SET last_scheduled_day = @day WHERE id = @id
    AND (last_scheduled_day IS NULL OR last_scheduled_day <> @day)`,
  insertRun: `INSERT INTO rule_runs (rule_id, trigger, status, by_name, started_at, undo_of)
    VALUES (?, ?, 'running', ?, ?, ?)`,
  insertItem: `INSERT INTO rule_run_items (run_id, listing_id, title, state, reason, why, before,
    after, floor_cents, markdown_cents, idem_key, seq) VALUES (@runId, @listingId, @title, @state,
    @reason, @why, @before, @after, @floorCents, @markdownCents, @key, @seq)`,
  markUndone: 'UPDATE rule_runs SET undone_by = ? WHERE id = ?',
  run: `${RUN} WHERE id = ?`,
  runs: `${RUN} WHERE rule_id = ? ORDER BY id DESC LIMIT ?`,
  unfinishedRuns: `${RUN} WHERE status IN ('running', 'paused') ORDER BY id`,
  setRunStatus: `UPDATE rule_runs SET status = @status, note = @note, resume_at = @resumeAt,
    finished_at = @finishedAt, attempts = attempts + (@status = 'paused') WHERE id = @id`,
  // The listings changed (or to be) first, then those left alone, each in plan order.
  items: `${ITEM} WHERE run_id = ? ORDER BY state = 'skipped', seq LIMIT ?`,
  pendingItems: `${ITEM} WHERE run_id = ? AND state = 'pending' ORDER BY seq`,
  settleItem: `UPDATE rule_run_items SET state = @state, status = @status, at = @at,
    reason = COALESCE(@reason, reason), why = COALESCE(@why, why)
    WHERE run_id = @runId AND listing_id = @listingId AND state = 'pending'`,
  lastChanges: `SELECT i.listing_id AS id, MAX(i.at) AS at ${STANDING} AND r.rule_id = ?
    GROUP BY i.listing_id`,
  lastChangesOfListing: `SELECT r.rule_id AS id, MAX(i.at) AS at ${STANDING}
    AND i.listing_id = ? GROUP BY r.rule_id`,
  // SQLite gives the other columns of the row MAX picked.
  touchedListings: `${TOUCHED}, MAX(i.at) AS at ${STANDING} GROUP BY i.listing_id ORDER BY at
    LIMIT ?`,
  touchedListing: `${TOUCHED}, i.at ${STANDING} AND i.listing_id = ? ORDER BY i.at DESC LIMIT 1`,
  salesOfRule: `SELECT listing_id AS id, ${SALE} WHERE rule_id = ? AND ended = 0`,
  salesOfListing: `SELECT rule_id AS id, ${SALE} WHERE listing_id = ? AND ended = 0`,
  putOnSale: `INSERT INTO rule_sales (rule_id, listing_id, original_cents, sale_cents, ended)
    VALUES (?, ?, ?, ?, 0) ON CONFLICT (rule_id, listing_id) DO UPDATE
    SET original_cents = excluded.original_cents, sale_cents = excluded.sale_cents, ended = 0`,
  endSale: 'UPDATE rule_sales SET ended = 1 WHERE rule_id = ? AND listing_id = ?',
};

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS rules (id INTEGER PRIMARY KEY AUTOINCREMENT, definition TEXT NOT NULL,
    enabled INTEGER NOT NULL DEFAULT 0, created_by TEXT, created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL, last_scheduled_day TEXT);
  CREATE TABLE IF NOT EXISTS rule_runs (id INTEGER PRIMARY KEY AUTOINCREMENT,
    rule_id INTEGER NOT NULL, trigger TEXT NOT NULL, status TEXT NOT NULL, by_name TEXT,
    started_at TEXT NOT NULL, finished_at TEXT, note TEXT, resume_at INTEGER,
    attempts INTEGER NOT NULL DEFAULT 0, undo_of INTEGER, undone_by INTEGER);
  CREATE INDEX IF NOT EXISTS rule_runs_by_rule ON rule_runs (rule_id, id);
  CREATE TABLE IF NOT EXISTS rule_run_items (run_id INTEGER NOT NULL, listing_id TEXT NOT NULL,
    title TEXT NOT NULL, state TEXT NOT NULL, reason TEXT, why TEXT NOT NULL,
    before TEXT NOT NULL, after TEXT NOT NULL, floor_cents INTEGER,
    markdown_cents INTEGER NOT NULL DEFAULT 0, idem_key TEXT, status INTEGER, at TEXT,
    seq INTEGER NOT NULL, PRIMARY KEY (run_id, listing_id));
  CREATE INDEX IF NOT EXISTS rule_run_items_by_listing ON rule_run_items (listing_id, run_id);
  CREATE TABLE IF NOT EXISTS rule_sales (rule_id INTEGER NOT NULL, listing_id TEXT NOT NULL,
    original_cents INTEGER NOT NULL, sale_cents INTEGER NOT NULL,
    ended INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (rule_id, listing_id));
  CREATE INDEX IF NOT EXISTS rule_sales_by_listing ON rule_sales (listing_id);`;
const DELETED = 'ALTER TABLE rules ADD COLUMN deleted_at TEXT;';

type Statement = keyof typeof STATEMENTS;
const JSON_COLUMNS = ['before', 'after', 'counts', 'definition'];

export class RulesStore extends SqliteStore {
  /** The rules as read, until a rule is written (a run's progress leaves them). */
  private read: StoredRule[] | undefined;

  constructor(path: string) {
    super(path, 'rules', [SCHEMA, DELETED]);
  }

  /** SQLite's count of rows changed: kept plans hold it, and are planned again when it moves. */
  get version(): number {
    return this.sql('SELECT total_changes()').pluck().get() as number;
  }

  private write(statement: Statement, ...params: unknown[]): Database.RunResult {
    return this.sql(STATEMENTS[statement]).run(...params);
  }

  private all<T>(statement: Statement, ...params: unknown[]): T[] {
    return (this.sql(STATEMENTS[statement]).all(...params) as Record<string, unknown>[]).map(
      (row) => {
        for (const column of JSON_COLUMNS) {
          if (typeof row[column] === 'string') row[column] = JSON.parse(row[column]);
        }
        return row as T;
      },
    );
  }

  /** A row that no longer reads as a rule (edited by hand) is left out: it is not run. */
  private rulesOf(statement: Statement, ...params: unknown[]): StoredRule[] {
    return this.all<RuleRow>(statement, ...params).flatMap((row) => {
      const definition = RuleDefinition.safeParse(row.definition);
      return definition.success
        ? [{ ...row, enabled: row.enabled === 1, definition: definition.data }]
        : [];
    });
  }

  /** A new rule: a sale keeps its own clock from the start, a daily rule waits to be switched on. */
  createRule(definition: RuleDefinition, createdBy: string | null, at: string): StoredRule {
    const enabled = definition.action.kind === 'sale' ? 1 : 0;
    const json = JSON.stringify(definition);
    const { lastInsertRowid } = this.write('insertRule', json, enabled, createdBy, at, at);
    this.read = undefined;
    return this.rule(Number(lastInsertRowid))!;
  }

  updateRule(id: number, change: { definition?: RuleDefinition; enabled?: boolean }, at: string) {
    const rule = this.rule(id);
    if (!rule) return undefined;
    const enabled = (change.enabled ?? rule.enabled) ? 1 : 0;
    this.write('updateRule', JSON.stringify(change.definition ?? rule.definition), enabled, at, id);
    this.read = undefined;
    return this.rule(id);
  }

  deleteRule(id: number, at: string): boolean {
    this.read = undefined;
    return this.write('deleteRule', at, id).changes > 0;
  }

  rule = (id: number, deletedToo = false) =>
    this.rulesOf(deletedToo ? 'anyRule' : 'rule', id)[0] as StoredRule | undefined;
  /** The rules deleted lately, newest first: their runs stay in the history. */
  deletedRules = () => this.rulesOf('deletedRules');

  /** Every rule, read (and checked by its schema) once per change to the rules. */
  rules(): StoredRule[] {
    this.read ??= this.rulesOf('rules');
    return [...this.read];
  }

  /** Marks the day (in the rule's zone) its scheduled run started, so it starts once a day. */
  claimScheduledDay(id: number, day: string): boolean {
    return this.write('claimDay', { day, id }).changes > 0;
  }

  /** A run and every item of its plan in one transaction: nothing is sent before this commits. */
  createRun(
    run: Pick<RunRecord, 'ruleId' | 'trigger' | 'by'> & { at: string; undoOf?: number },
    items: readonly PlanItem[],
  ): number {
    return this.db.transaction(() => {
      const { ruleId, trigger, by, at, undoOf = null } = run;
      const { lastInsertRowid } = this.write('insertRun', ruleId, trigger, by, at, undoOf);
      const runId = Number(lastInsertRowid);
      items.forEach((item, seq) => {
        const write = item.kind === 'write';
        this.write('insertItem', {
          ...item,
          runId,
          seq,
          title: item.title.slice(0, 200),
          state: write ? 'pending' : 'skipped',
          before: JSON.stringify(item.before),
          after: JSON.stringify(item.after),
          // One key per run and listing: a resend after a restart is the same request.
          key: write ? `slabdesk-rule-run-${runId}-${item.listingId}` : null,
        });
      });
      if (undoOf !== null) this.write('markUndone', runId, undoOf);
      return runId;
    })();
  }

  run = (id: number) => this.all<RunRecord>('run', id)[0];
  runs = (ruleId: number, limit = 50) => this.all<RunRecord>('runs', ruleId, limit);
  /** Runs left running or paused (after a restart, or waiting out a pause). */
  unfinishedRuns = () => this.all<RunRecord>('unfinishedRuns');

  setRunStatus(
    id: number,
    status: RunRecord['status'],
    { note = null, resumeAt = null, finishedAt = null }: Partial<RunRecord> = {},
  ): void {
    this.write('setRunStatus', { note, resumeAt, finishedAt, id, status });
  }

  items = (runId: number, limit = -1) => this.all<RunItem>('items', runId, limit);
  pendingItems = (runId: number) => this.all<RunItem>('pendingItems', runId);

  settleItem(
    runId: number,
    listingId: string,
    state: 'done' | 'failed' | 'skipped',
    fields: { status?: number; reason?: string; why?: string; at: string },
  ): void {
    const { status = null, reason = null, why = null, at } = fields;
    this.write('settleItem', { status, reason, why, at, state, runId, listingId });
  }

  /** Listing id → epoch ms of the newest change this rule made to it that still stands. */
  lastChanges = (ruleId: number) => timesOf<string>(this.all('lastChanges', ruleId));

  /** One listing's history with every rule: each rule's newest change to it, and its sale. */
  historyOf(listingId: string): { lastChanges: Map<number, number>; sales: Map<number, Sale> } {
    return {
      lastChanges: timesOf(this.all('lastChangesOfListing', listingId)),
      sales: salesOf(this.all('salesOfListing', listingId)),
    };
  }

  /** Every listing a rule changed (not undone), with its newest such change; `limit` at most. */
  touchedListings = (limit = 50_000) => this.all<TouchedListing>('touchedListings', limit);
  /** One listing's newest change by a rule (not undone), if any. */
  touchedListing = (listingId: string) => this.all<TouchedListing>('touchedListing', listingId)[0];
  /** The listings this rule has on sale, with their prices before and on sale. */
  salesOf = (ruleId: number) => salesOf<string>(this.all('salesOfRule', ruleId));

  putOnSale(ruleId: number, listingId: string, originalCents: bigint, saleCents: bigint): void {
    this.write('putOnSale', ruleId, listingId, originalCents, saleCents);
  }

  endSale = (ruleId: number, listingId: string) => void this.write('endSale', ruleId, listingId);
}

type RuleRow = Omit<StoredRule, 'enabled'> & { enabled: number };

const timesOf = <K>(rows: { id: K; at: string }[]) =>
  new Map(rows.map((row) => [row.id, Date.parse(row.at)]));

const salesOf = <K>(rows: { id: K; originalCents: number; saleCents: number }[]) =>
  new Map<K, Sale>(
    rows.map(({ id, originalCents, saleCents }) => [
      id,
      { originalCents: BigInt(originalCents), saleCents: BigInt(saleCents) },
    ]),
  );
