import type { SlabdeskClient } from '../../client';
import type { Upstream } from '../api-proxy';
import type { ActivityStore } from '../activity/activity-store';
import type { KeyGovernor } from '../governor/key-governor';
import { waitText } from '../upstream-pause';
import { serverLog } from '../log';
import type { RuleDefinition, StoredRule } from './rule-definition';
import { RulePlanner, type ListingFacts, type PlanContext, type PlanItem } from './rule-plan';
import type { Replica } from '../replica/replica';
import { ReplicaListings, type KeptCosts } from './replica-listings';
import { exactCents } from '../../shared/money';
import { rulesClient, writeListing, type ApiAnswer } from './rule-write';
import type { NewRunItem, RulesStore, RunItem, RunRecord } from './rules-store';
import { localDayAndTime, runAtDay } from './rule-schedule';
import { ListingLines, type LineAnswer } from './listing-lines';

export type { Upcoming } from './listing-lines';

/**
 * Runs the rules: plans from the listings as the hub's replica holds them, records every intended write with its
 * Idempotency-Key before sending, sends through the governor at background priority, and pauses
 * (with a line saying why) while the API is paused or writes are off. A restart resumes the runs
 * left running: each pending write goes again under its own key, so the API replays what it did.
 */

export interface RuleRunnerOptions {
  store: RulesStore;
  activity: ActivityStore | undefined;
  upstream: Upstream;
  governor: KeyGovernor | undefined;
  /** The hub's replica: every listing and cost the rules read. */
  replica: Replica;
  /** The seller's costs kept by the hub, read over the marketplace's. */
  costs?: KeptCosts;
  now?: () => number;
  /** Writes in flight at once for one run (the governor paces them). */
  concurrency?: number;
  /** How often the schedule and paused runs are looked at. */
  tickMs?: number;
  /** Pauses a run takes before it stops and says so. */
  maxPauses?: number;
  /** The shortest wait of a paused run, in seconds (default PAUSE_BOUNDS_S.min). */
  minPauseSeconds?: number;
}

const DAY_MS = 86_400_000;
/** The longest stretch of a preview's planning before the event loop gets a turn. */
const PLAN_SLICE_MS = 8;
/** The shortest and longest a paused run waits before it tries again. */
const PAUSE_BOUNDS_S = { min: 30, max: 3_600 };
/** The shortest wait of a run the marketplace asked to slow down, in seconds. */
const RATE_LIMITED_PAUSE_S = 1;
/** Codes that mean nothing more will go through now: the run pauses, pending writes kept. */
const PAUSE_CODES = new Set([
  'partner_api_writes_disabled',
  'partner_api_disabled',
  'upstream_paused',
  'too_many_waiting',
  'upstream_unreachable',
  'upstream_timeout',
  'rate_limited',
  'internal_error',
]);

const PATH = (id: string) => `/2026-07/listings/${encodeURIComponent(id)}.json`;

/** A seller's line for a pause or a stop. */
function pauseLine(answer: ApiAnswer): string {
  const wait = answer.retryAfterSeconds ? ` for about ${waitText(answer.retryAfterSeconds)}` : '';
  switch (answer.code) {
    case 'partner_api_writes_disabled':
      return `Paused: the marketplace has switched off changes${wait}. The rule carries on by itself when they are back.`;
    case 'partner_api_disabled':
      return `Paused: the marketplace is down${wait}. The rule carries on by itself when it is back.`;
    case 'upstream_paused':
    case 'rate_limited':
    case 'too_many_waiting':
      return `Paused: the marketplace asked us to slow down${wait}. The rule carries on by itself.`;
    default:
      return 'Paused: the marketplace could not be reached. The rule tries again shortly.';
  }
}

function refusalLine(answer: ApiAnswer): string {
  const code = answer.code ?? 'refused';
  if (code === 'listing_write_forbidden') {
    return 'Stopped: the marketplace does not let this account change listings now. Nothing more is sent; check the account, then run the rule again.';
  }
  if (code.startsWith('seller_') || code === 'insufficient_scope' || code === 'invalid_api_key') {
    return 'Stopped: the marketplace refused the key or the account. Nothing more is sent; check the account, then run the rule again.';
  }
  return 'Stopped: the marketplace refused the rule’s changes. Nothing more is sent.';
}

export interface Preview {
  items: PlanItem[];
  /** The listings read (all of the seller's), and those in the rule's scope. */
  read: number;
  /** Milliseconds of this server's time the planning took. */
  busyMs: number;
}

export class RuleRunner {
  private readonly store: RulesStore;
  private readonly now: () => number;
  private readonly active = new Map<number, Promise<void>>();
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** The listings and costs as the replica holds them. */
  private readonly source: ReplicaListings;
  /** The one typed client, for the rules' writes. */
  private readonly client: SlabdeskClient;

  /** The listings' rule lines, kept until what they read changes. */
  readonly lines: ListingLines;

  constructor(private readonly options: RuleRunnerOptions) {
    this.store = options.store;
    this.now = options.now ?? Date.now;
    this.lines = new ListingLines(this.store, options.activity, this.now);
    this.source = new ReplicaListings(options.replica, options.costs);
    this.client = rulesClient(options.upstream, options.governor);
  }

  /** Resumes what a restart interrupted and starts looking at the schedule. */
  start(): void {
    for (const run of this.store.unfinishedRuns()) {
      if (run.status === 'running') this.drive(run.id);
    }
    this.timer = setInterval(() => this.tick(), this.options.tickMs ?? 15_000);
    this.timer.unref();
  }

  /** Stops sending: a write in flight is left pending, sent again under its key after a start. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.abort.abort();
    await Promise.allSettled([...this.active.values()]);
  }

  /** Whether a run is being sent now. */
  sending(runId: number): boolean {
    return this.active.has(runId);
  }

  /** Waits for a run's sending to end (tests, and undo after a run). */
  async settled(runId: number): Promise<void> {
    await this.active.get(runId);
  }

  /**
   * The seller's listings as now, from the hub's replica (ReplicaNotReadyError while it cannot be
   * filled): no read upstream of the rules' own.
   */
  async listings(): Promise<Map<string, ListingFacts>> {
    return this.source.listings();
  }

  contextFor(
    ruleId: number | undefined,
    definition: RuleDefinition,
    now = this.now(),
  ): PlanContext {
    const since = now - Math.max(definition.skipEditedWithinDays, 0) * DAY_MS;
    return {
      now,
      personEdits: this.options.activity?.personEdits(since) ?? new Map(),
      lastChangedByRule: ruleId === undefined ? new Map() : this.store.lastChanges(ruleId),
      onSale: ruleId === undefined ? new Map() : this.store.salesOf(ruleId),
    };
  }

  /**
   * What a rule (kept, or a draft) would do now, with nothing sent. Planned in turns of a few
   * milliseconds, so thousands of listings never hold the event loop.
   */
  async preview(definition: RuleDefinition, ruleId?: number): Promise<Preview> {
    const listings = await this.listings();
    const planner = new RulePlanner(definition, this.contextFor(ruleId, definition));
    let busyMs = 0;
    let sliceAt = performance.now();
    for (const listing of [...listings.values()]) {
      planner.add(listing);
      if (performance.now() - sliceAt > PLAN_SLICE_MS) {
        busyMs += performance.now() - sliceAt;
        await new Promise<void>((resolve) => setImmediate(resolve));
        sliceAt = performance.now();
      }
    }
    busyMs += performance.now() - sliceAt;
    return { items: planner.items, read: listings.size, busyMs };
  }

  /** Plans a run, records it whole, and starts sending; answers once it is recorded. */
  async startRun(
    rule: StoredRule,
    trigger: 'manual' | 'schedule',
    by: string | null,
  ): Promise<RunRecord> {
    const running = this.store
      .runs(rule.id, 5)
      .find((run) => run.status === 'running' || run.status === 'paused');
    if (running) return running;
    const { items } = await this.preview(rule.definition, rule.id);
    const runId = this.store.createRun(
      { ruleId: rule.id, trigger, by, at: new Date(this.now()).toISOString() },
      items.map(newItemOf),
    );
    this.drive(runId);
    return this.store.run(runId)!;
  }

  /**
   * Undoes a run: puts back what each of its changes replaced, where the listing is still as the
   * run left it and no person changed it since; the rest is skipped and says why.
   */
  async undo(run: RunRecord, by: string | null): Promise<RunRecord> {
    const listings = await this.listings();
    const items: NewRunItem[] = [];
    for (const item of this.store.items(run.id)) {
      if (item.state !== 'done') continue;
      const now = listings.get(item.listingId);
      const base = {
        listingId: item.listingId,
        title: item.title,
        floorCents: item.floorCents,
        markdownCents: 0,
      };
      const edited = this.options.activity?.personEditSince(
        item.listingId,
        Date.parse(item.at ?? run.startedAt),
      );
      if (
        !now ||
        now.unavailableReason === 'sold' ||
        (now.status !== 'active' && item.after.status !== 'active')
      ) {
        items.push({
          ...base,
          state: 'skipped',
          reason: 'inactive',
          why: 'sold or no longer on sale',
          before: {},
          after: {},
        });
      } else if (edited !== undefined || !stillAsLeft(now, item)) {
        items.push({
          ...base,
          state: 'skipped',
          reason: 'changed_since',
          why: 'changed since the rule set it',
          before: {},
          after: {},
        });
      } else {
        const back = undoFields(item);
        if (!back) {
          items.push({
            ...base,
            state: 'skipped',
            reason: 'unchanged',
            why: 'nothing to put back',
            before: {},
            after: {},
          });
        } else {
          items.push({
            ...base,
            state: 'pending',
            reason: null,
            why: 'put back as it was before the run',
            before: item.after,
            after: back,
          });
        }
      }
    }
    const runId = this.store.createRun(
      {
        ruleId: run.ruleId,
        trigger: 'undo',
        by,
        at: new Date(this.now()).toISOString(),
        undoOf: run.id,
      },
      items,
    );
    this.drive(runId);
    return this.store.run(runId)!;
  }

  /** Sends a run's pending writes, once at a time per run. */
  private drive(runId: number): void {
    if (this.closed || this.active.has(runId)) return;
    const work = this.send(runId)
      .catch((error: unknown) => {
        // A thrown error never stops the server: the run pauses and is tried again.
        serverLog.error({ err: error, runId }, 'A pricing rule run failed');
        if (!this.closed) {
          this.store.setRunStatus(runId, 'paused', {
            note: 'Paused after an error on this server. The rule tries again shortly.',
            resumeAt: this.now() + PAUSE_BOUNDS_S.min * 1000,
          });
        }
      })
      .finally(() => this.active.delete(runId));
    this.active.set(runId, work);
  }

  private async send(runId: number): Promise<void> {
    const run = this.store.run(runId);
    if (!run) return;
    const rule = this.store.rule(run.ruleId);
    this.store.setRunStatus(runId, 'running');
    const queue = this.store.pendingItems(runId);
    const startedAt = Date.parse(run.startedAt);
    let halt: { kind: 'pause' | 'stop'; answer: ApiAnswer } | undefined;
    const worker = async () => {
      for (let item = queue.shift(); item && !halt && !this.closed; item = queue.shift()) {
        const outcome = await this.sendOne(run, rule, item, startedAt);
        if (outcome && !halt) halt = outcome;
      }
    };
    const width = Math.max(1, this.options.concurrency ?? 4);
    await Promise.all(Array.from({ length: width }, worker));
    if (this.closed) return;
    const at = new Date(this.now()).toISOString();
    if (halt?.kind === 'pause') {
      const current = this.store.run(runId)!;
      if (current.attempts + 1 >= (this.options.maxPauses ?? 5)) {
        this.stopRun(
          runId,
          `${
            pauseLine(halt.answer)
              .replace(/^Paused:/, 'Stopped:')
              .split('.')[0]
          }. It paused too often; run it again later.`,
        );
        return;
      }
      // Asked to slow down: the run goes on when the marketplace said (the governor holds every
      // call that long), not after the half minute a refusal or an outage waits.
      const slowDown = halt.answer.status === 429 && halt.answer.code !== 'too_many_waiting';
      const floor = slowDown
        ? RATE_LIMITED_PAUSE_S
        : (this.options.minPauseSeconds ?? PAUSE_BOUNDS_S.min);
      const seconds = Math.min(
        Math.max(halt.answer.retryAfterSeconds ?? 0, floor),
        PAUSE_BOUNDS_S.max,
      );
      this.store.setRunStatus(runId, 'paused', {
        note: pauseLine(halt.answer),
        resumeAt: this.now() + seconds * 1000,
      });
      // Looked at again when its wait ends, not at the schedule's next look.
      setTimeout(() => this.tick(), seconds * 1000 + 20).unref();
      return;
    }
    if (halt?.kind === 'stop') {
      this.stopRun(runId, refusalLine(halt.answer));
      return;
    }
    const left = this.store.pendingItems(runId).length;
    if (left > 0) {
      // Never called done with a write unsent: it goes again shortly.
      serverLog.warn({ runId, left }, 'A rule run ended its pass with writes unsent');
      this.store.setRunStatus(runId, 'paused', {
        note: 'Paused: some changes could not be sent yet. The rule tries again shortly.',
        resumeAt: this.now() + (this.options.minPauseSeconds ?? PAUSE_BOUNDS_S.min) * 1000,
      });
      return;
    }
    this.store.setRunStatus(runId, 'done', { finishedAt: at });
  }

  private stopRun(runId: number, note: string): void {
    const at = new Date(this.now()).toISOString();
    for (const item of this.store.pendingItems(runId)) {
      this.store.settleItem(runId, item.listingId, 'failed', {
        reason: 'stopped',
        why: 'not sent: the run stopped',
        at,
      });
    }
    this.store.setRunStatus(runId, 'stopped', { note, finishedAt: at });
  }

  /** Sends one recorded write; answers why the run must pause or stop, if it must. */
  private async sendOne(
    run: RunRecord,
    rule: StoredRule | undefined,
    item: RunItem,
    startedAt: number,
  ): Promise<{ kind: 'pause' | 'stop'; answer: ApiAnswer } | undefined> {
    const at = () => new Date(this.now()).toISOString();
    // A person's change made during the run wins over the rule's.
    const edited = this.options.activity?.personEditSince(item.listingId, startedAt);
    if (edited !== undefined) {
      this.store.settleItem(run.id, item.listingId, 'skipped', {
        reason: 'edited_by_person',
        why: 'a person changed it during the run; their change wins',
        at: at(),
      });
      return undefined;
    }
    let answer: ApiAnswer | undefined;
    // A retry of the same key while the first is still executing waits its turn, a few times.
    for (let attempt = 0; attempt < 4; attempt++) {
      answer = await writeListing(
        this.client,
        item.listingId,
        item.after,
        item.idempotencyKey ?? undefined,
        this.abort.signal,
      );
      const gone = answer.status === -1 && !this.closed;
      if (answer.code !== 'idempotency_request_in_flight' && !gone) break;
      await new Promise((resolve) => setTimeout(resolve, 250 * (attempt + 1)));
    }
    if (!answer || this.closed) return undefined;
    // Taken back while waiting for its turn: kept pending, the run waits and tries again.
    if (answer.status === -1) return { kind: 'pause', answer };
    if (answer.status >= 200 && answer.status < 300) {
      this.store.settleItem(run.id, item.listingId, 'done', { status: answer.status, at: at() });
      this.record(run, rule, item, answer);
      // The replica takes the answer: the next plan reads the listing as the write left it.
      this.options.replica.applyWriteAnswer(answer.body);
      if (rule?.definition.action.kind === 'sale' && run.trigger !== 'undo' && item.after.price) {
        const before = exactCents(item.before.price);
        const after = exactCents(item.after.price);
        const ended = Date.parse(rule.definition.action.endsAt) <= Date.parse(run.startedAt);
        if (ended) this.store.endSale(rule.id, item.listingId);
        else if (before !== null && after !== null) {
          this.store.putOnSale(rule.id, item.listingId, Number(before), Number(after));
        }
      }
      return undefined;
    }
    if (
      PAUSE_CODES.has(answer.code ?? '') ||
      answer.status === 0 ||
      answer.status >= 500 ||
      answer.status === 429
    ) {
      return { kind: 'pause', answer };
    }
    this.store.settleItem(run.id, item.listingId, 'failed', {
      status: answer.status,
      reason: answer.code ?? `status_${answer.status}`,
      why: failureWords(answer),
      at: at(),
    });
    this.record(run, rule, item, answer);
    // A refusal of the account or key holds for every listing: sending more would only repeat it.
    if (answer.status === 401 || answer.status === 403) {
      return { kind: 'stop', answer };
    }
    return undefined;
  }

  /** The change in the activity log, as made by the rule, with who created it. */
  private record(
    run: RunRecord,
    rule: StoredRule | undefined,
    item: RunItem,
    answer: ApiAnswer,
  ): void {
    const activity = this.options.activity;
    if (!activity) return;
    try {
      const changes: Record<
        string,
        { before?: string | number | boolean | null; after?: string | number | boolean | null }
      > = {};
      for (const [field, value] of Object.entries(item.after)) {
        const was = (item.before as Record<string, string | number | boolean | null | undefined>)[
          field
        ];
        changes[field] =
          was === undefined ? { after: value as string } : { before: was, after: value as string };
      }
      const ok = answer.status >= 200 && answer.status < 300;
      const name = rule?.definition.name ?? `Rule ${run.ruleId}`;
      activity.insert({
        at: new Date(this.now()).toISOString(),
        actor: {
          name: run.trigger === 'undo' ? `Undo of rule “${name}”` : `Rule “${name}”`,
          role: 'rule',
        },
        action: item.after.status === 'active' ? 'reactivate' : 'update',
        method: 'PUT',
        path: PATH(item.listingId),
        listingId: item.listingId,
        bulkJobId: null,
        changes,
        outcome: ok ? 'ok' : answer.status >= 500 || answer.status === 0 ? 'failed' : 'refused',
        status: answer.status,
        code: answer.code,
        requestId: answer.requestId?.slice(0, 120) ?? null,
        rule: { id: run.ruleId, name, createdBy: rule?.createdBy ?? null },
      });
    } catch (error) {
      serverLog.error({ err: error }, 'The activity log could not record a rule’s change');
    }
  }

  /** Resumes paused runs whose wait is over and starts the rules due by their schedule. */
  tick(): void {
    if (this.closed) return;
    const now = this.now();
    try {
      for (const run of this.store.unfinishedRuns()) {
        if (run.status === 'paused' && (run.resumeAt ?? 0) <= now) this.drive(run.id);
      }
      for (const rule of this.store.rules()) {
        const schedule = rule.definition.schedule;
        if (!rule.enabled || !schedule.daily) continue;
        const local = localDayAndTime(now, schedule.timeZone);
        if (local.time < schedule.time) continue;
        if (!this.store.claimScheduledDay(rule.id, local.day)) continue;
        this.startRun(rule, 'schedule', null).catch((error: unknown) => {
          serverLog.warn({ err: error, ruleId: rule.id }, 'A scheduled rule could not start');
        });
      }
    } catch (error) {
      serverLog.error({ err: error }, 'The rules schedule could not be read');
    }
  }

  /**
   * The line a listing's page shows: what the next scheduled run of each rule would do to it,
   * kept until something it read changes (`ListingLines`).
   */
  async upcoming(listingId: string): Promise<LineAnswer> {
    // A page view never waits for a read: the replica as it holds the listing now serves.
    const listing = this.source.known(listingId);
    if (!listing) return { upcoming: [], busyMs: 0 };
    return this.lines.line(listing);
  }
}

/** The scheduled run `dayOffset` days from now (the rule's time in its zone). */
export function nextRunAt(rule: StoredRule, now: number, dayOffset: number): number {
  return runAtDay(rule.definition.schedule, now, dayOffset);
}

function newItemOf(item: PlanItem): NewRunItem {
  const base = {
    listingId: item.listingId,
    title: item.title,
    why: item.why,
    floorCents: item.floorCents === null ? null : Number(item.floorCents),
  };
  if (item.kind === 'skip') {
    return {
      ...base,
      state: 'skipped',
      reason: item.reason,
      before: {},
      after: {},
      markdownCents: 0,
    };
  }
  return {
    ...base,
    state: 'pending',
    reason: null,
    before: item.before,
    after: item.after,
    markdownCents: Number(item.markdownCents),
  };
}

/** Whether the listing still shows what the run's change set. */
function stillAsLeft(listing: ListingFacts, item: RunItem): boolean {
  if (item.after.price !== undefined && exactCents(item.after.price) !== listing.priceCents)
    return false;
  if (item.after.minimum_offer !== undefined) {
    const want = item.after.minimum_offer === null ? null : exactCents(item.after.minimum_offer);
    if (want !== listing.minimumOfferCents) return false;
  }
  if (
    item.after.accepts_offers !== undefined &&
    item.after.accepts_offers !== listing.acceptsOffers
  )
    return false;
  return true;
}

/** The fields that put back what a change replaced; null when there is nothing a write can undo. */
function undoFields(item: RunItem): RunItem['after'] | null {
  const back: RunItem['after'] = {};
  if (item.before.price !== undefined) back.price = item.before.price;
  if (item.before.accepts_offers === false) {
    // Turning offers off also clears the minimum offer (the spec's rule).
    back.accepts_offers = false;
  } else if (item.after.minimum_offer !== undefined) {
    back.minimum_offer = item.before.minimum_offer ?? null;
  }
  if (item.after.status === 'active' && item.before.status && item.before.status !== 'active') {
    // A relist is undone by taking it off sale again, as a draft.
    back.status = 'draft';
  }
  return Object.keys(back).length ? back : null;
}

function failureWords(answer: ApiAnswer): string {
  switch (answer.code) {
    case 'listing_write_conflict':
      return 'the marketplace refused: sold or held meanwhile';
    case 'not_found':
      return 'the listing is gone';
    case 'validation_error':
      return 'the marketplace refused the new value';
    case 'idempotency_key_reuse':
      return 'the marketplace saw this change before with other values';
    case 'listing_write_forbidden':
      return 'the marketplace does not let this account change listings now';
    default:
      return 'the marketplace refused the change';
  }
}
