import type Database from 'better-sqlite3';
import { openStore, type StoreFile } from '../../shared/sqlite/open-store';
import { RuleDefinition } from '../../shared/rule-definition';
import type { RunItem, RunRecord, StoredRule, WriteFields } from '../../shared/rule-answers';
import type { PlanItem } from './rule-plan';

export type { RunItem, RunRecord, StoredRule };
export type RunTrigger = RunRecord['trigger'];
export type RunStatus = RunRecord['status'];
export interface TouchedListing {
  listingId: string;
  ruleId: number;
  at: string;
  after: WriteFields;
}
export interface Sale {
  originalCents: bigint;
  saleCents: bigint;
}

/** The rules on disk: each write kept with its Idempotency-Key before it is sent (a restart resends). */

type Json<T, K extends keyof T> = Omit<T, K> & Record<K, string>;
type RunRow = Omit<RunRecord, 'counts' | 'markdownCents'>;
type SaleRow = { id: string | number; original_cents: number; sale_cents: number };

const RULE = `SELECT id, definition, enabled, created_by AS createdBy, created_at AS createdAt,
  updated_at AS updatedAt, deleted_at AS deletedAt FROM rules`;
const RUN = `SELECT id, rule_id AS ruleId, trigger, status, by_name AS "by", started_at AS startedAt,
  finished_at AS finishedAt, note, resume_at AS resumeAt, attempts, undo_of AS undoOf,
  undone_by AS undoneBy FROM rule_runs`;
const ITEM = `SELECT run_id AS runId, listing_id AS listingId, title, state, reason, why, before,
  after, floor_cents AS floorCents, markdown_cents AS markdownCents, idem_key AS idempotencyKey,
  status, at FROM rule_run_items`;
/** A rule's changes that still stand: done, by a run (not an undo) that was not undone. */
const STANDING = `FROM rule_run_items i JOIN rule_runs r ON r.id = i.run_id
  WHERE i.state = 'done' AND r.trigger <> 'undo' AND r.undone_by IS NULL`;
const TOUCHED = 'SELECT i.listing_id AS listingId, r.rule_id AS ruleId, i.after';

/** Every statement of the store, prepared once when it opens. */
function prepareStatements(db: Database.Database) {
  return {
    insertRule: db.prepare(`INSERT INTO rules (definition, enabled, created_by, created_at,
      updated_at) VALUES (?, ?, ?, ?, ?)`),
    updateRule: db.prepare(
      'UPDATE rules SET definition = ?, enabled = ?, updated_at = ? WHERE id = ?',
    ),
    // A deleted rule is kept (off, marked) so its runs stay readable in the history.
    deleteRule: db.prepare(`UPDATE rules SET enabled = 0, deleted_at = ? WHERE id = ?
      AND deleted_at IS NULL`),
    ruleById: db.prepare(`${RULE} WHERE id = ? AND deleted_at IS NULL`),
    anyRuleById: db.prepare(`${RULE} WHERE id = ?`),
    allRules: db.prepare(`${RULE} WHERE deleted_at IS NULL ORDER BY id`),
    deletedRules: db.prepare(`${RULE} WHERE deleted_at IS NOT NULL ORDER BY deleted_at DESC
      LIMIT 50`),
    claimDay: db.prepare(`UPDATE rules SET last_scheduled_day = @day WHERE id = @id
      AND (last_scheduled_day IS NULL OR last_scheduled_day <> @day)`),
    insertRun: db.prepare(`INSERT INTO rule_runs (rule_id, trigger, status, by_name, started_at,
      undo_of) VALUES (?, ?, 'running', ?, ?, ?)`),
    insertItem: db.prepare(`INSERT INTO rule_run_items (run_id, listing_id, title, state, reason,
      why, before, after, floor_cents, markdown_cents, idem_key, seq) VALUES (@runId, @listingId,
      @title, @state, @reason, @why, @before, @after, @floorCents, @markdownCents, @key, @seq)`),
    markUndone: db.prepare('UPDATE rule_runs SET undone_by = ? WHERE id = ?'),
    runById: db.prepare(`${RUN} WHERE id = ?`),
    runsOfRule: db.prepare(`${RUN} WHERE rule_id = ? ORDER BY id DESC LIMIT ?`),
    unfinishedRuns: db.prepare(`${RUN} WHERE status IN ('running', 'paused') ORDER BY id`),
    setRunStatus: db.prepare(`UPDATE rule_runs SET status = @status, note = @note,
      resume_at = @resumeAt, finished_at = @finishedAt, attempts = attempts + (@status = 'paused')
      WHERE id = @id`),
    runCounts: db.prepare(`SELECT TOTAL(state = 'done') AS changed, TOTAL(state = 'skipped')
      AS skipped, TOTAL(state = 'failed') AS failed, TOTAL(state = 'pending') AS pending,
      TOTAL(CASE WHEN state = 'done' THEN markdown_cents END) AS markdownCents
      FROM rule_run_items WHERE run_id = ?`),
    // The listings changed (or to be) first, then those left alone, each in plan order.
    itemsOfRun: db.prepare(`${ITEM} WHERE run_id = ? ORDER BY state = 'skipped', seq LIMIT ?`),
    pendingItems: db.prepare(`${ITEM} WHERE run_id = ? AND state = 'pending' ORDER BY seq`),
    settleItem: db.prepare(`UPDATE rule_run_items SET state = ?, status = ?,
      reason = COALESCE(?, reason), why = COALESCE(?, why), at = ?
      WHERE run_id = ? AND listing_id = ? AND state = 'pending'`),
    lastChanges: db.prepare(`SELECT i.listing_id AS id, MAX(i.at) AS at ${STANDING}
      AND r.rule_id = ? GROUP BY i.listing_id`),
    lastChangesOfListing: db.prepare(`SELECT r.rule_id AS id, MAX(i.at) AS at ${STANDING}
      AND i.listing_id = ? GROUP BY r.rule_id`),
    // SQLite gives the other columns of the row MAX picked.
    touchedListings: db.prepare(`${TOUCHED}, MAX(i.at) AS at ${STANDING}
      GROUP BY i.listing_id ORDER BY at LIMIT ?`),
    touchedListing: db.prepare(`${TOUCHED}, i.at ${STANDING} AND i.listing_id = ?
      ORDER BY i.at DESC LIMIT 1`),
    salesOfRule: db.prepare(`SELECT listing_id AS id, original_cents, sale_cents FROM rule_sales
      WHERE rule_id = ? AND ended = 0`),
    salesOfListing: db.prepare(`SELECT rule_id AS id, original_cents, sale_cents FROM rule_sales
      WHERE listing_id = ? AND ended = 0`),
    putOnSale: db.prepare(`INSERT INTO rule_sales (rule_id, listing_id, original_cents, sale_cents,
      ended) VALUES (?, ?, ?, ?, 0) ON CONFLICT (rule_id, listing_id) DO UPDATE
      SET original_cents = excluded.original_cents, sale_cents = excluded.sale_cents, ended = 0`),
    endSale: db.prepare('UPDATE rule_sales SET ended = 1 WHERE rule_id = ? AND listing_id = ?'),
  };
}

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

export class RulesStore {
  private readonly file: StoreFile;
  private readonly sql: ReturnType<typeof prepareStatements>;
  private changes = 0;
  /** Changes to the rules themselves: what `rules()` reads. */
  private ruleChanges = 0;
  /** The rules as read at a version of the rules: a run's progress leaves it. */
  private read: { version: number; rules: StoredRule[] } | undefined;

  constructor(path: string) {
    this.file = openStore(path, 'rules', [SCHEMA, DELETED]);
    this.sql = prepareStatements(this.file.db);
    // Read once as the store opens, then kept up to date as each rule is written.
    this.rules();
  }

  /** Changes whenever something a plan reads changes here; kept plans hold it. */
  get version(): number {
    return this.changes;
  }

  /** A new rule: a sale keeps its own clock from the start, a daily rule waits to be switched on. */
  createRule(definition: RuleDefinition, createdBy: string | null, at: string): StoredRule {
    const enabled = definition.action.kind === 'sale' ? 1 : 0;
    const json = JSON.stringify(definition);
    const { lastInsertRowid } = this.sql.insertRule.run(json, enabled, createdBy, at, at);
    return this.ruleWritten(Number(lastInsertRowid))!;
  }

  updateRule(id: number, change: { definition?: RuleDefinition; enabled?: boolean }, at: string) {
    const rule = this.rule(id);
    if (!rule) return undefined;
    const enabled = (change.enabled ?? rule.enabled) ? 1 : 0;
    this.sql.updateRule.run(JSON.stringify(change.definition ?? rule.definition), enabled, at, id);
    return this.ruleWritten(id);
  }

  deleteRule(id: number, at: string): boolean {
    const deleted = this.sql.deleteRule.run(at, id).changes > 0;
    this.ruleWritten(id);
    return deleted;
  }

  /** The rule just written, read back into the rules as read: `rules()` does not check all again. */
  private ruleWritten(id: number): StoredRule | undefined {
    this.changes++;
    const rule = this.rule(id);
    if (this.read?.version !== this.ruleChanges++) return rule;
    const rules = this.read.rules.filter((kept) => kept.id !== id);
    if (rule) rules.push(rule);
    rules.sort((a, b) => a.id - b.id);
    this.read = { version: this.ruleChanges, rules };
    return rule;
  }

  rule(id: number, deletedToo = false): StoredRule | undefined {
    const statement = deletedToo ? this.sql.anyRuleById : this.sql.ruleById;
    return ruleOf(statement.get(id) as RuleRow | undefined);
  }

  /** The rules deleted lately, newest first: their runs stay in the history. */
  deletedRules(): StoredRule[] {
    return (this.sql.deletedRules.all() as RuleRow[]).flatMap((row) => ruleOf(row) ?? []);
  }

  /** Every rule, read (and checked by its schema) once per change to the rules. */
  rules(): StoredRule[] {
    if (this.read?.version !== this.ruleChanges) {
      const rules = (this.sql.allRules.all() as RuleRow[]).flatMap((row) => ruleOf(row) ?? []);
      this.read = { version: this.ruleChanges, rules };
    }
    return [...this.read.rules];
  }

  /** Marks the day (in the rule's zone) its scheduled run started, so it starts once a day. */
  claimScheduledDay(id: number, day: string): boolean {
    return this.sql.claimDay.run({ day, id }).changes > 0;
  }

  /** A run and every item of its plan in one transaction: nothing is sent before this commits. */
  createRun(
    run: { ruleId: number; trigger: RunTrigger; by: string | null; at: string; undoOf?: number },
    items: readonly PlanItem[],
  ): number {
    this.changes++;
    return this.file.db.transaction(() => {
      const { ruleId, trigger, by, at, undoOf = null } = run;
      const runId = Number(this.sql.insertRun.run(ruleId, trigger, by, at, undoOf).lastInsertRowid);
      items.forEach((item, seq) => {
        const write = item.kind === 'write' ? item : undefined;
        this.sql.insertItem.run({
          runId,
          seq,
          listingId: item.listingId,
          title: item.title.slice(0, 200),
          state: write ? 'pending' : 'skipped',
          reason: item.kind === 'skip' ? item.reason : null,
          why: item.why,
          before: JSON.stringify(write?.before ?? {}),
          after: JSON.stringify(write?.after ?? {}),
          floorCents: item.floorCents,
          markdownCents: write?.markdownCents ?? 0n,
          // One key per run and listing: a resend after a restart is the same request.
          key: write ? `slabdesk-rule-run-${runId}-${item.listingId}` : null,
        });
      });
      if (undoOf !== null) this.sql.markUndone.run(runId, undoOf);
      return runId;
    })();
  }

  run(id: number): RunRecord | undefined {
    const row = this.sql.runById.get(id) as RunRow | undefined;
    return row && this.runOf(row);
  }

  runs(ruleId: number, limit = 50): RunRecord[] {
    return (this.sql.runsOfRule.all(ruleId, limit) as RunRow[]).map((row) => this.runOf(row));
  }

  /** Runs left running or paused (after a restart, or waiting out a pause). */
  unfinishedRuns(): RunRecord[] {
    return (this.sql.unfinishedRuns.all() as RunRow[]).map((row) => this.runOf(row));
  }

  setRunStatus(
    id: number,
    status: RunStatus,
    fields: { note?: string; resumeAt?: number; finishedAt?: string } = {},
  ): void {
    const { note = null, resumeAt = null, finishedAt = null } = fields;
    this.sql.setRunStatus.run({ id, status, note, resumeAt, finishedAt });
  }

  /** A run's items in plan order, `limit` at most. */
  items(runId: number, limit = -1): RunItem[] {
    return (this.sql.itemsOfRun.all(runId, limit) as ItemRow[]).map(itemOf);
  }

  pendingItems(runId: number): RunItem[] {
    return (this.sql.pendingItems.all(runId) as ItemRow[]).map(itemOf);
  }

  settleItem(
    runId: number,
    listingId: string,
    state: 'done' | 'failed' | 'skipped',
    fields: { status?: number; reason?: string; why?: string; at: string },
  ): void {
    this.changes++;
    const { status = null, reason = null, why = null, at } = fields;
    this.sql.settleItem.run(state, status, reason, why, at, runId, listingId);
  }

  /** Listing id → epoch ms of the newest change this rule made to it that still stands. */
  lastChanges(ruleId: number): Map<string, number> {
    return timesOf(this.sql.lastChanges.all(ruleId) as { id: string; at: string }[]);
  }

  /** One listing's history with every rule: each rule's newest change to it, and its sale. */
  historyOf(listingId: string): { lastChanges: Map<number, number>; sales: Map<number, Sale> } {
    return {
      lastChanges: timesOf(
        this.sql.lastChangesOfListing.all(listingId) as { id: number; at: string }[],
      ),
      sales: salesOf(this.sql.salesOfListing.all(listingId) as SaleRow[]) as Map<number, Sale>,
    };
  }

  /** Every listing a rule changed (not undone), with its newest such change; `limit` at most. */
  touchedListings(limit = 50_000): TouchedListing[] {
    return (this.sql.touchedListings.all(limit) as Json<TouchedListing, 'after'>[]).map(touchedOf);
  }

  /** One listing's newest change by a rule (not undone), if any. */
  touchedListing(listingId: string): TouchedListing | undefined {
    const row = this.sql.touchedListing.get(listingId) as Json<TouchedListing, 'after'> | undefined;
    return row && touchedOf(row);
  }

  /** The listings this rule has on sale, with their prices before and on sale. */
  salesOf(ruleId: number): Map<string, Sale> {
    return salesOf(this.sql.salesOfRule.all(ruleId) as SaleRow[]) as Map<string, Sale>;
  }

  putOnSale(ruleId: number, listingId: string, originalCents: bigint, saleCents: bigint): void {
    this.changes++;
    this.sql.putOnSale.run(ruleId, listingId, originalCents, saleCents);
  }

  endSale(ruleId: number, listingId: string): void {
    this.changes++;
    this.sql.endSale.run(ruleId, listingId);
  }

  private runOf(row: RunRow): RunRecord {
    const { markdownCents, ...counts } = this.sql.runCounts.get(row.id) as RunRecord['counts'] & {
      markdownCents: number;
    };
    return { ...row, counts, markdownCents };
  }

  close(): void {
    this.file.close();
  }
}

type ItemRow = Json<RunItem, 'before' | 'after'>;
type RuleRow = Omit<StoredRule, 'definition' | 'enabled'> & { definition: string; enabled: number };

const itemOf = (row: ItemRow): RunItem => ({
  ...row,
  before: JSON.parse(row.before) as WriteFields,
  after: JSON.parse(row.after) as WriteFields,
});

const touchedOf = (row: Json<TouchedListing, 'after'>): TouchedListing => ({
  ...row,
  after: JSON.parse(row.after) as WriteFields,
});

const timesOf = <K>(rows: { id: K; at: string }[]) =>
  new Map(rows.map((row) => [row.id, Date.parse(row.at)]));

const salesOf = (rows: SaleRow[]) =>
  new Map(
    rows.map((row) => [
      row.id,
      { originalCents: BigInt(row.original_cents), saleCents: BigInt(row.sale_cents) },
    ]),
  );

function ruleOf(row: RuleRow | undefined): StoredRule | undefined {
  if (!row) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.definition);
  } catch {
    return undefined;
  }
  // A row that no longer reads as a rule (edited by hand) is not run.
  const definition = RuleDefinition.safeParse(parsed);
  if (!definition.success) return undefined;
  return { ...row, enabled: row.enabled === 1, definition: definition.data };
}
