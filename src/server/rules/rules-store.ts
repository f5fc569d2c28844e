import type Database from 'better-sqlite3';
import { openStore, type StoreFile } from '../../shared/sqlite/open-store';
import { RuleDefinition, type StoredRule } from './rule-definition';
import type { WriteFields } from './rule-plan';

/**
 * The pricing rules on disk (SQLite, WAL), beside the activity log: the rules, their runs, and
 * each run's items. A write is recorded with its Idempotency-Key before it is sent, so a restart
 * sends it again under the same key (the API replays it) and never twice under two keys.
 */

export type RunTrigger = 'schedule' | 'manual' | 'undo';
export type RunStatus = 'running' | 'paused' | 'done' | 'stopped';
export type ItemState = 'pending' | 'done' | 'failed' | 'skipped';

export interface RunRecord {
  id: number;
  ruleId: number;
  trigger: RunTrigger;
  status: RunStatus;
  /** Who asked for it (run now, undo); null for the schedule or sign-in off. */
  by: string | null;
  startedAt: string;
  finishedAt: string | null;
  /** The clear line while paused or after a stop, in the seller's words. */
  note: string | null;
  /** Epoch ms after which a paused run tries again. */
  resumeAt: number | null;
  attempts: number;
  undoOf: number | null;
  undoneBy: number | null;
  counts: { changed: number; skipped: number; failed: number; pending: number };
  markdownCents: number;
}

export interface RunItem {
  runId: number;
  listingId: string;
  title: string;
  state: ItemState;
  /** Why it was left alone or failed (a SkipReason or the API's code). */
  reason: string | null;
  why: string;
  before: WriteFields;
  after: WriteFields;
  floorCents: number | null;
  markdownCents: number;
  idempotencyKey: string | null;
  /** The API's answer status once sent; null before. */
  status: number | null;
  at: string | null;
}

interface RunRow {
  id: number;
  rule_id: number;
  trigger: RunTrigger;
  status: RunStatus;
  by_name: string | null;
  started_at: string;
  finished_at: string | null;
  note: string | null;
  resume_at: number | null;
  attempts: number;
  undo_of: number | null;
  undone_by: number | null;
}

interface ItemRow {
  run_id: number;
  listing_id: string;
  title: string;
  state: ItemState;
  reason: string | null;
  why: string;
  before: string;
  after: string;
  floor_cents: number | null;
  markdown_cents: number;
  idem_key: string | null;
  status: number | null;
  at: string | null;
}

const itemOf = (row: ItemRow): RunItem => ({
  runId: row.run_id,
  listingId: row.listing_id,
  title: row.title,
  state: row.state,
  reason: row.reason,
  why: row.why,
  before: JSON.parse(row.before) as WriteFields,
  after: JSON.parse(row.after) as WriteFields,
  floorCents: row.floor_cents,
  markdownCents: row.markdown_cents,
  idempotencyKey: row.idem_key,
  status: row.status,
  at: row.at,
});

export interface NewRunItem {
  listingId: string;
  title: string;
  state: 'pending' | 'skipped';
  reason: string | null;
  why: string;
  before: WriteFields;
  after: WriteFields;
  floorCents: number | null;
  markdownCents: number;
}

/** Every statement of the store, prepared once when it opens (better-sqlite3's own way). */
function prepareStatements(db: Database.Database) {
  return {
    insertRule: db.prepare(
      `INSERT INTO rules (definition, enabled, created_by, created_at, updated_at)
         VALUES (?, 0, ?, ?, ?)`,
    ),
    updateRule: db.prepare(
      'UPDATE rules SET definition = ?, enabled = ?, updated_at = ? WHERE id = ?',
    ),
    deleteRule: db.prepare('DELETE FROM rules WHERE id = ?'),
    ruleById: db.prepare('SELECT * FROM rules WHERE id = ?'),
    allRules: db.prepare('SELECT * FROM rules ORDER BY id'),
    claimDay: db.prepare(
      `UPDATE rules SET last_scheduled_day = ? WHERE id = ?
             AND (last_scheduled_day IS NULL OR last_scheduled_day <> ?)`,
    ),
    insertItem: db.prepare(
      `INSERT INTO rule_run_items (run_id, listing_id, title, state, reason, why, before, after,
         floor_cents, markdown_cents, idem_key, seq)
       VALUES (@run_id, @listing_id, @title, @state, @reason, @why, @before, @after,
         @floor_cents, @markdown_cents, @idem_key, @seq)`,
    ),
    insertRun: db.prepare(
      `INSERT INTO rule_runs (rule_id, trigger, status, by_name, started_at, undo_of)
           VALUES (?, ?, 'running', ?, ?, ?)`,
    ),
    markUndone: db.prepare('UPDATE rule_runs SET undone_by = ? WHERE id = ?'),
    runById: db.prepare('SELECT * FROM rule_runs WHERE id = ?'),
    runsOfRule: db.prepare('SELECT * FROM rule_runs WHERE rule_id = ? ORDER BY id DESC LIMIT ?'),
    unfinishedRuns: db.prepare(
      `SELECT * FROM rule_runs WHERE status IN ('running', 'paused') ORDER BY id`,
    ),
    setRunStatus: db.prepare(
      `UPDATE rule_runs SET status = ?, note = ?, resume_at = ?, finished_at = ?,
           attempts = attempts + CASE WHEN ? = 'paused' THEN 1 ELSE 0 END
         WHERE id = ?`,
    ),
    itemsOfRun: db.prepare('SELECT * FROM rule_run_items WHERE run_id = ? ORDER BY seq LIMIT ?'),
    pendingItems: db.prepare(
      `SELECT * FROM rule_run_items WHERE run_id = ? AND state = 'pending' ORDER BY seq`,
    ),
    settleItem: db.prepare(
      `UPDATE rule_run_items SET state = ?, status = ?, reason = COALESCE(?, reason),
           why = COALESCE(?, why), at = ?
         WHERE run_id = ? AND listing_id = ? AND state = 'pending'`,
    ),
    lastChanges: db.prepare(
      `SELECT i.listing_id AS id, MAX(i.at) AS at FROM rule_run_items i
           JOIN rule_runs r ON r.id = i.run_id
         WHERE r.rule_id = ? AND r.trigger <> 'undo' AND r.undone_by IS NULL AND i.state = 'done'
         GROUP BY i.listing_id`,
    ),
    lastChangesOfListing: db.prepare(
      `SELECT r.rule_id AS rule, MAX(i.at) AS at FROM rule_run_items i
           JOIN rule_runs r ON r.id = i.run_id
         WHERE i.listing_id = ? AND r.trigger <> 'undo' AND r.undone_by IS NULL
           AND i.state = 'done'
         GROUP BY r.rule_id`,
    ),
    salesOfListing: db.prepare('SELECT * FROM rule_sales WHERE listing_id = ? AND ended = 0'),
    touchedListings: db.prepare(
      `SELECT i.listing_id, r.rule_id, MAX(i.at) AS at, i.after FROM rule_run_items i
           JOIN rule_runs r ON r.id = i.run_id
         WHERE i.state = 'done' AND r.trigger <> 'undo' AND r.undone_by IS NULL
         GROUP BY i.listing_id ORDER BY at LIMIT ?`,
    ),
    touchedListing: db.prepare(
      `SELECT i.listing_id, r.rule_id, i.at, i.after FROM rule_run_items i
           JOIN rule_runs r ON r.id = i.run_id
         WHERE i.listing_id = ? AND i.state = 'done' AND r.trigger <> 'undo'
           AND r.undone_by IS NULL
         ORDER BY i.at DESC LIMIT 1`,
    ),
    salesOfRule: db.prepare('SELECT * FROM rule_sales WHERE rule_id = ? AND ended = 0'),
    putOnSale: db.prepare(
      `INSERT INTO rule_sales (rule_id, listing_id, original_cents, sale_cents, ended)
         VALUES (?, ?, ?, ?, 0)
         ON CONFLICT (rule_id, listing_id) DO UPDATE SET original_cents = excluded.original_cents,
           sale_cents = excluded.sale_cents, ended = 0`,
    ),
    endSale: db.prepare('UPDATE rule_sales SET ended = 1 WHERE rule_id = ? AND listing_id = ?'),
    runCounts: db.prepare(
      `SELECT state, COUNT(*) AS n, SUM(markdown_cents) AS md FROM rule_run_items
         WHERE run_id = ? GROUP BY state`,
    ),
  };
}

export class RulesStore {
  private readonly file: StoreFile;
  private readonly db: Database.Database;
  private readonly sql: ReturnType<typeof prepareStatements>;
  private changes = 0;
  /** Changes to the rules themselves (made, edited, switched, deleted): what `rules()` reads. */
  private ruleChanges = 0;
  /** The rules as read at a version of the rules (`rules()`): a run's progress leaves it. */
  private read: { version: number; rules: StoredRule[] } | undefined;

  constructor(path: string) {
    this.file = openStore(path, 'rules', [
      `CREATE TABLE IF NOT EXISTS rules (
         id INTEGER PRIMARY KEY AUTOINCREMENT,
         definition TEXT NOT NULL,
         enabled INTEGER NOT NULL DEFAULT 0,
         created_by TEXT,
         created_at TEXT NOT NULL,
         updated_at TEXT NOT NULL,
         last_scheduled_day TEXT
       );
       CREATE TABLE IF NOT EXISTS rule_runs (
         id INTEGER PRIMARY KEY AUTOINCREMENT,
         rule_id INTEGER NOT NULL,
         trigger TEXT NOT NULL,
         status TEXT NOT NULL,
         by_name TEXT,
         started_at TEXT NOT NULL,
         finished_at TEXT,
         note TEXT,
         resume_at INTEGER,
         attempts INTEGER NOT NULL DEFAULT 0,
         undo_of INTEGER,
         undone_by INTEGER
       );
       CREATE INDEX IF NOT EXISTS rule_runs_by_rule ON rule_runs (rule_id, id);
       CREATE TABLE IF NOT EXISTS rule_run_items (
         run_id INTEGER NOT NULL,
         listing_id TEXT NOT NULL,
         title TEXT NOT NULL,
         state TEXT NOT NULL,
         reason TEXT,
         why TEXT NOT NULL,
         before TEXT NOT NULL,
         after TEXT NOT NULL,
         floor_cents INTEGER,
         markdown_cents INTEGER NOT NULL DEFAULT 0,
         idem_key TEXT,
         status INTEGER,
         at TEXT,
         seq INTEGER NOT NULL,
         PRIMARY KEY (run_id, listing_id)
       );
       CREATE INDEX IF NOT EXISTS rule_run_items_by_listing ON rule_run_items (listing_id, run_id);
       CREATE TABLE IF NOT EXISTS rule_sales (
         rule_id INTEGER NOT NULL,
         listing_id TEXT NOT NULL,
         original_cents INTEGER NOT NULL,
         sale_cents INTEGER NOT NULL,
         ended INTEGER NOT NULL DEFAULT 0,
         PRIMARY KEY (rule_id, listing_id)
       );
       CREATE INDEX IF NOT EXISTS rule_sales_by_listing ON rule_sales (listing_id);`,
    ]);
    this.db = this.file.db;
    this.sql = prepareStatements(this.db);
    // The rules are read once as the store opens, then kept up to date as each one is written.
    this.rules();
  }

  /**
   * A number that changes whenever something a plan reads changes here: a rule made, edited,
   * switched, deleted; a run recorded, a change settled, a sale begun or ended. Kept plans hold it.
   */
  get version(): number {
    return this.changes;
  }

  // Rules

  createRule(definition: RuleDefinition, createdBy: string | null, at: string): StoredRule {
    const result = this.sql.insertRule.run(JSON.stringify(definition), createdBy, at, at);
    this.changes++;
    this.ruleChanges++;
    const id = Number(result.lastInsertRowid);
    return this.keepRead(id, this.rule(id))!;
  }

  updateRule(
    id: number,
    change: { definition?: RuleDefinition; enabled?: boolean },
    at: string,
  ): StoredRule | undefined {
    const rule = this.rule(id);
    if (!rule) return undefined;
    this.sql.updateRule.run(
      JSON.stringify(change.definition ?? rule.definition),
      (change.enabled ?? rule.enabled) ? 1 : 0,
      at,
      id,
    );
    this.changes++;
    this.ruleChanges++;
    return this.keepRead(id, this.rule(id));
  }

  deleteRule(id: number): boolean {
    this.changes++;
    this.ruleChanges++;
    const deleted = this.sql.deleteRule.run(id).changes > 0;
    this.keepRead(id, undefined);
    return deleted;
  }

  /**
   * The rules as read, brought up to date with the one rule just written (as read back, checked by
   * its schema), so `rules()` does not read and check every rule again after each edit; when they
   * were not up to date before it, `rules()` reads them all as usual.
   */
  private keepRead(id: number, rule: StoredRule | undefined): StoredRule | undefined {
    if (this.read?.version !== this.ruleChanges - 1) return rule;
    const rules = this.read.rules.filter((kept) => kept.id !== id);
    if (rule) {
      const after = rules.findIndex((kept) => kept.id > id);
      rules.splice(after === -1 ? rules.length : after, 0, rule);
    }
    this.read = { version: this.ruleChanges, rules };
    return rule;
  }

  rule(id: number): StoredRule | undefined {
    const row = this.sql.ruleById.get(id) as RuleRow | undefined;
    return row ? ruleOf(row) : undefined;
  }

  /** Every rule, read (and checked by its schema) once per change to the rules. */
  rules(): StoredRule[] {
    if (this.read?.version !== this.ruleChanges) {
      const rules = (this.sql.allRules.all() as RuleRow[]).flatMap((row) => {
        const rule = ruleOf(row);
        return rule ? [rule] : [];
      });
      this.read = { version: this.ruleChanges, rules };
    }
    return [...this.read.rules];
  }

  /** Marks the day (in the rule's zone) its scheduled run was started, so it starts once a day. */
  claimScheduledDay(id: number, day: string): boolean {
    return this.sql.claimDay.run(day, id, day).changes > 0;
  }

  // Runs

  /** A run and every item of its plan in one transaction: nothing is sent before this commits. */
  createRun(
    run: { ruleId: number; trigger: RunTrigger; by: string | null; at: string; undoOf?: number },
    items: readonly NewRunItem[],
  ): number {
    this.changes++;
    return this.db.transaction(() => {
      const result = this.sql.insertRun.run(
        run.ruleId,
        run.trigger,
        run.by,
        run.at,
        run.undoOf ?? null,
      );
      const runId = Number(result.lastInsertRowid);
      items.forEach((item, seq) => {
        this.sql.insertItem.run({
          run_id: runId,
          listing_id: item.listingId,
          title: item.title.slice(0, 200),
          state: item.state,
          reason: item.reason,
          why: item.why,
          before: JSON.stringify(item.before),
          after: JSON.stringify(item.after),
          floor_cents: item.floorCents,
          markdown_cents: item.markdownCents,
          // One key per run and listing: a resend after a restart is the same request.
          idem_key:
            item.state === 'pending' ? `slabdesk-rule-run-${runId}-${item.listingId}` : null,
          seq,
        });
      });
      if (run.undoOf !== undefined) {
        this.sql.markUndone.run(runId, run.undoOf);
      }
      return runId;
    })();
  }

  run(id: number): RunRecord | undefined {
    const row = this.sql.runById.get(id) as RunRow | undefined;
    return row ? this.runOf(row) : undefined;
  }

  runs(ruleId: number, limit = 50): RunRecord[] {
    const rows = this.sql.runsOfRule.all(ruleId, limit) as RunRow[];
    return rows.map((row) => this.runOf(row));
  }

  /** Runs left running or paused (after a restart, or waiting out a pause). */
  unfinishedRuns(): RunRecord[] {
    const rows = this.sql.unfinishedRuns.all() as RunRow[];
    return rows.map((row) => this.runOf(row));
  }

  setRunStatus(
    id: number,
    status: RunStatus,
    fields: { note?: string | null; resumeAt?: number | null; finishedAt?: string | null } = {},
  ): void {
    this.sql.setRunStatus.run(
      status,
      fields.note ?? null,
      fields.resumeAt ?? null,
      fields.finishedAt ?? null,
      status,
      id,
    );
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
    fields: { status?: number | null; reason?: string | null; why?: string; at: string },
  ): void {
    this.changes++;
    this.sql.settleItem.run(
      state,
      fields.status ?? null,
      fields.reason ?? null,
      fields.why ?? null,
      fields.at,
      runId,
      listingId,
    );
  }

  /** Listing id → epoch ms of the newest change this rule made to it (runs, not undos). */
  lastChanges(ruleId: number): Map<string, number> {
    const rows = this.sql.lastChanges.all(ruleId) as { id: string; at: string }[];
    return new Map(rows.map((row) => [row.id, Date.parse(row.at)]));
  }

  /**
   * One listing's history with every rule at once: rule id → epoch ms of that rule's newest change
   * to it (as `lastChanges`), and rule id → its sale price where a rule has it on sale.
   */
  historyOf(listingId: string): {
    lastChanges: Map<number, number>;
    sales: Map<number, { originalCents: bigint; saleCents: bigint }>;
  } {
    const changed = this.sql.lastChangesOfListing.all(listingId) as { rule: number; at: string }[];
    const sales = this.sql.salesOfListing.all(listingId) as {
      rule_id: number;
      original_cents: number;
      sale_cents: number;
    }[];
    return {
      lastChanges: new Map(changed.map((row) => [row.rule, Date.parse(row.at)])),
      sales: new Map(
        sales.map((row) => [
          row.rule_id,
          { originalCents: BigInt(row.original_cents), saleCents: BigInt(row.sale_cents) },
        ]),
      ),
    };
  }

  /**
   * Every listing a rule changed (not undone), with its newest such change; `limit` listings at
   * most.
   */
  touchedListings(limit = 50_000): TouchedListing[] {
    // SQLite gives the other columns of the row MAX picked.
    const rows = this.sql.touchedListings.all(limit) as TouchedRow[];
    return rows.map(touchedOf);
  }

  /** One listing's newest change by a rule (not undone), if any. */
  touchedListing(listingId: string): TouchedListing | undefined {
    const row = this.sql.touchedListing.get(listingId) as TouchedRow | undefined;
    return row ? touchedOf(row) : undefined;
  }

  // Sale events

  salesOf(ruleId: number): Map<string, { originalCents: bigint; saleCents: bigint }> {
    const rows = this.sql.salesOfRule.all(ruleId) as {
      listing_id: string;
      original_cents: number;
      sale_cents: number;
    }[];
    return new Map(
      rows.map((row) => [
        row.listing_id,
        { originalCents: BigInt(row.original_cents), saleCents: BigInt(row.sale_cents) },
      ]),
    );
  }

  putOnSale(ruleId: number, listingId: string, originalCents: number, saleCents: number): void {
    this.changes++;
    this.sql.putOnSale.run(ruleId, listingId, originalCents, saleCents);
  }

  endSale(ruleId: number, listingId: string): void {
    this.changes++;
    this.sql.endSale.run(ruleId, listingId);
  }

  private runOf(row: RunRow): RunRecord {
    const counts = this.sql.runCounts.all(row.id) as { state: ItemState; n: number; md: number }[];
    const n = (state: ItemState) => counts.find((c) => c.state === state)?.n ?? 0;
    return {
      id: row.id,
      ruleId: row.rule_id,
      trigger: row.trigger,
      status: row.status,
      by: row.by_name,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      note: row.note,
      resumeAt: row.resume_at,
      attempts: row.attempts,
      undoOf: row.undo_of,
      undoneBy: row.undone_by,
      counts: {
        changed: n('done'),
        skipped: n('skipped'),
        failed: n('failed'),
        pending: n('pending'),
      },
      markdownCents: counts.find((c) => c.state === 'done')?.md ?? 0,
    };
  }

  close(): void {
    this.file.close();
  }
}

export interface TouchedListing {
  listingId: string;
  ruleId: number;
  at: string;
  after: WriteFields;
}

interface TouchedRow {
  listing_id: string;
  rule_id: number;
  at: string;
  after: string;
}

const touchedOf = (row: TouchedRow): TouchedListing => ({
  listingId: row.listing_id,
  ruleId: row.rule_id,
  at: row.at,
  after: JSON.parse(row.after) as WriteFields,
});

interface RuleRow {
  id: number;
  definition: string;
  enabled: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

function ruleOf(row: RuleRow): StoredRule | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.definition);
  } catch {
    return undefined;
  }
  const definition = RuleDefinition.safeParse(parsed);
  // A row that no longer reads as a rule (edited by hand) is not run.
  if (!definition.success) return undefined;
  return {
    id: row.id,
    enabled: row.enabled === 1,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    definition: definition.data,
  };
}
