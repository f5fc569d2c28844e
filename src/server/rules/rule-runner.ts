import { isApiError, type SlabdeskClient } from '../../client';
import { CLIENT_ERROR_CODES } from '../../client/api-error';
import { exactCents } from '../../shared/money';
import type { ActivityChanges, ActivityStore } from '../activity/activity-store';
import type { Scalar } from '../activity/listing-fields';
import type { Upstream } from '../api-proxy';
import type { KeyGovernor } from '../governor/key-governor';
import { serverLog } from '../log';
import type { Replica } from '../replica/replica';
import { serverClient } from '../server-client';
import { waitText } from '../upstream-pause';
import { ListingLines, type LineAnswer } from './listing-lines';
import { ReplicaListings, type KeptCosts } from './replica-listings';
import type { RuleDefinition, StoredRule } from './rule-definition';
import { RulePlanner, type ListingFacts, type PlanContext, type PlanItem } from './rule-plan';
import { localDayAndTime } from './rule-schedule';
import type { NewRunItem, RulesStore, RunItem, RunRecord } from './rules-store';

/**
 * Runs the rules over the replica's listings. Each write is recorded with its Idempotency-Key
 * before it goes, so a restart resends it under the same key and the API replays it.
 */

export interface RuleRunnerOptions {
  store: RulesStore;
  activity: ActivityStore | undefined;
  upstream: Upstream;
  governor: KeyGovernor | undefined;
  replica: Replica;
  /** The seller's costs kept by the hub, read over the marketplace's. */
  costs?: KeptCosts;
  /** The rules' clock (epoch ms): their schedule, pauses and their routes' session budget. */
  now?: () => number;
  /** How often the schedule and paused runs are looked at. */
  tickMs?: number;
  /** Pauses a run takes before it stops and says so. */
  maxPauses?: number;
  /** The shortest wait of a paused run, in seconds. */
  minPauseSeconds?: number;
}

/** An answer to one write, an error's as much as a success's. */
interface ApiAnswer {
  /** -1: taken back while waiting for its turn; 0: unreachable. */
  status: number;
  code: string | null;
  retryAfterSeconds: number | null;
  body: unknown;
  requestId: string | null;
}

interface Halt {
  kind: 'pause' | 'stop';
  answer: ApiAnswer;
}

const DAY_MS = 86_400_000;
/** Writes in flight at once for one run; the governor paces them. */
const WIDTH = 4;
/** The longest stretch of a preview's planning before the event loop gets a turn. */
const PLAN_SLICE_MS = 8;
const PAUSE_S = { min: 30, max: 3_600, rateLimited: 1 };
/** Codes that mean nothing more goes through now: the run pauses, pending writes kept. */
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
const FAILURE_WORDS: Record<string, string> = {
  listing_write_conflict: 'the marketplace refused: sold or held meanwhile',
  not_found: 'the listing is gone',
  validation_error: 'the marketplace refused the new value',
  idempotency_key_reuse: 'the marketplace saw this change before with other values',
  listing_write_forbidden: 'the marketplace does not let this account change listings now',
};
const STOP_AGAIN = 'Nothing more is sent; check the account, then run the rule again.';

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

function refusalLine({ code }: ApiAnswer): string {
  if (code === 'listing_write_forbidden') {
    return `Stopped: the marketplace does not let this account change listings now. ${STOP_AGAIN}`;
  }
  if (code?.startsWith('seller_') || code === 'insufficient_scope' || code === 'invalid_api_key') {
    return `Stopped: the marketplace refused the key or the account. ${STOP_AGAIN}`;
  }
  return 'Stopped: the marketplace refused the rule’s changes. Nothing more is sent.';
}

export interface Preview {
  items: PlanItem[];
  /** Every listing read, in the rule's scope or not. */
  read: number;
  /** Milliseconds of this server's time the planning took. */
  busyMs: number;
}

export class RuleRunner {
  private readonly store: RulesStore;
  readonly now: () => number;
  private readonly active = new Map<number, Promise<void>>();
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly source: ReplicaListings;
  /** The one typed client, each write a background ticket of the governor under the rules' share. */
  private readonly client: SlabdeskClient;
  /** The listings' rule lines, kept until what they read changes. */
  readonly lines: ListingLines;

  constructor(private readonly options: RuleRunnerOptions) {
    this.store = options.store;
    this.now = options.now ?? Date.now;
    this.lines = new ListingLines(this.store, options.activity, this.now);
    this.source = new ReplicaListings(options.replica, options.costs);
    // The client tries nothing again by itself: the run decides (a pause, a stop, the same key).
    this.client = serverClient(options.upstream, options.governor, {
      priority: 'background',
      share: 'server:rules',
      retry: { rateLimited: 0, unavailableBudgetSeconds: 0, transient: 0 },
    });
  }

  /** Resumes what a restart interrupted and starts looking at the schedule. */
  start(): void {
    for (const run of this.store.unfinishedRuns()) if (run.status === 'running') this.drive(run.id);
    this.timer = setInterval(() => this.tick(), this.options.tickMs ?? 15_000);
    this.timer.unref();
  }

  /** Stops sending: a write in flight stays pending, sent again under its key after a start. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.abort.abort();
    await Promise.allSettled([...this.active.values()]);
  }

  sending(runId: number): boolean {
    return this.active.has(runId);
  }

  /** Waits for a run's sending to end. */
  async settled(runId: number): Promise<void> {
    await this.active.get(runId);
  }

  /** The seller's listings as the replica holds them (ReplicaNotReadyError while it cannot). */
  listings(): Promise<Map<string, ListingFacts>> {
    return this.source.listings();
  }

  private contextFor(ruleId: number | undefined, definition: RuleDefinition): PlanContext {
    const now = this.now();
    const since = now - Math.max(definition.skipEditedWithinDays, 0) * DAY_MS;
    return {
      now,
      personEdits: this.options.activity?.personEdits(since) ?? new Map(),
      lastChangedByRule: ruleId === undefined ? new Map() : this.store.lastChanges(ruleId),
      onSale: ruleId === undefined ? new Map() : this.store.salesOf(ruleId),
    };
  }

  /** What a rule (kept, or a draft) would do now, planned in slices that never hold the loop. */
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
  async startRun(rule: StoredRule, trigger: 'manual' | 'schedule', by: string | null) {
    const unfinished = this.store.runs(rule.id, 5).find((run) => !run.finishedAt);
    if (unfinished) return unfinished;
    const { items } = await this.preview(rule.definition, rule.id);
    return this.begin({ ruleId: rule.id, trigger, by }, items.map(newItemOf));
  }

  /** Puts back what a run changed where no one changed it since; the rest is skipped and says why. */
  async undo(run: RunRecord, by: string | null): Promise<RunRecord> {
    const listings = await this.listings();
    const items = this.store.items(run.id).flatMap((item): NewRunItem[] => {
      if (item.state !== 'done') return [];
      const base = { listingId: item.listingId, title: item.title, floorCents: item.floorCents };
      const skip = (reason: string, why: string): NewRunItem => {
        return { ...base, state: 'skipped', reason, why, before: {}, after: {}, markdownCents: 0 };
      };
      const now = listings.get(item.listingId);
      const since = Date.parse(item.at ?? run.startedAt);
      if (!now || now.unavailableReason === 'sold')
        return [skip('inactive', 'sold or no longer on sale')];
      if (now.status !== 'active' && item.after.status !== 'active') {
        return [skip('inactive', 'sold or no longer on sale')];
      }
      if (this.options.activity?.personEditSince(item.listingId, since) !== undefined) {
        return [skip('changed_since', 'changed since the rule set it')];
      }
      if (!stillAsLeft(now, item)) return [skip('changed_since', 'changed since the rule set it')];
      const back = undoFields(item);
      if (!back) return [skip('unchanged', 'nothing to put back')];
      const why = 'put back as it was before the run';
      return [
        {
          ...base,
          state: 'pending',
          reason: null,
          why,
          before: item.after,
          after: back,
          markdownCents: 0,
        },
      ];
    });
    return this.begin({ ruleId: run.ruleId, trigger: 'undo', by, undoOf: run.id }, items);
  }

  private begin(run: Omit<Parameters<RulesStore['createRun']>[0], 'at'>, items: NewRunItem[]) {
    const runId = this.store.createRun({ ...run, at: this.iso() }, items);
    this.drive(runId);
    return this.store.run(runId)!;
  }

  private iso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Sends a run's pending writes, one sending per run. */
  private drive(runId: number): void {
    if (this.closed || this.active.has(runId)) return;
    const work = this.send(runId)
      .catch((error: unknown) => {
        // A thrown error never stops the server: the run pauses and is tried again.
        serverLog.error({ err: error, runId }, 'A pricing rule run failed');
        const note = 'Paused after an error on this server. The rule tries again shortly.';
        if (!this.closed) this.pause(runId, note, PAUSE_S.min);
      })
      .finally(() => this.active.delete(runId));
    this.active.set(runId, work);
  }

  private pause(runId: number, note: string, seconds: number): void {
    this.store.setRunStatus(runId, 'paused', { note, resumeAt: this.now() + seconds * 1000 });
  }

  private async send(runId: number): Promise<void> {
    const run = this.store.run(runId);
    if (!run) return;
    const rule = this.store.rule(run.ruleId);
    this.store.setRunStatus(runId, 'running');
    const queue = this.store.pendingItems(runId);
    let halt: Halt | undefined;
    const worker = async () => {
      for (let item = queue.shift(); item && !halt && !this.closed; item = queue.shift()) {
        halt ??= await this.sendOne(run, rule, item);
      }
    };
    await Promise.all(Array.from({ length: WIDTH }, worker));
    if (this.closed) return;
    const minPause = this.options.minPauseSeconds ?? PAUSE_S.min;
    if (halt?.kind === 'stop') return this.stopRun(runId, refusalLine(halt.answer));
    if (halt) {
      const line = pauseLine(halt.answer);
      if (this.store.run(runId)!.attempts + 1 >= (this.options.maxPauses ?? 5)) {
        const why = line.replace(/^Paused:/, 'Stopped:').split('.')[0];
        return this.stopRun(runId, `${why}. It paused too often; run it again later.`);
      }
      // Asked to slow down: it goes on when the marketplace said, not after an outage's wait.
      const slowDown = halt.answer.status === 429 && halt.answer.code !== 'too_many_waiting';
      const floor = slowDown ? PAUSE_S.rateLimited : minPause;
      const seconds = Math.min(Math.max(halt.answer.retryAfterSeconds ?? 0, floor), PAUSE_S.max);
      this.pause(runId, line, seconds);
      // Looked at again when its wait ends, not at the schedule's next look.
      setTimeout(() => this.tick(), seconds * 1000 + 20).unref();
      return;
    }
    const left = this.store.pendingItems(runId).length;
    if (left > 0) {
      // Never called done with a write unsent: it goes again shortly.
      serverLog.warn({ runId, left }, 'A rule run ended its pass with writes unsent');
      const note = 'Paused: some changes could not be sent yet. The rule tries again shortly.';
      return this.pause(runId, note, minPause);
    }
    this.store.setRunStatus(runId, 'done', { finishedAt: this.iso() });
  }

  private stopRun(runId: number, note: string): void {
    const at = this.iso();
    for (const item of this.store.pendingItems(runId)) {
      const why = 'not sent: the run stopped';
      this.store.settleItem(runId, item.listingId, 'failed', { reason: 'stopped', why, at });
    }
    this.store.setRunStatus(runId, 'stopped', { note, finishedAt: at });
  }

  /** Sends one recorded write; answers why the run must pause or stop, if it must. */
  private async sendOne(run: RunRecord, rule: StoredRule | undefined, item: RunItem) {
    // A person's change made during the run wins over the rule's.
    if (
      this.options.activity?.personEditSince(item.listingId, Date.parse(run.startedAt)) !==
      undefined
    ) {
      const why = 'a person changed it during the run; their change wins';
      const fields = { reason: 'edited_by_person', why, at: this.iso() };
      this.store.settleItem(run.id, item.listingId, 'skipped', fields);
      return undefined;
    }
    let answer = await this.write(item);
    // A retry of the same key while the first still runs waits its turn, a few times.
    for (let attempt = 1; attempt < 4 && this.retries(answer); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
      answer = await this.write(item);
    }
    if (this.closed) return undefined;
    // Taken back while waiting for its turn: kept pending, the run waits and tries again.
    if (answer.status === -1) return { kind: 'pause', answer } satisfies Halt;
    if (answer.status >= 200 && answer.status < 300) {
      this.store.settleItem(run.id, item.listingId, 'done', {
        status: answer.status,
        at: this.iso(),
      });
      this.record(run, rule, item, answer);
      // The replica takes the answer: the next plan reads the listing as the write left it.
      this.options.replica.applyWriteAnswer(answer.body);
      if (rule?.definition.action.kind === 'sale' && run.trigger !== 'undo' && item.after.price) {
        const [before, after] = [exactCents(item.before.price), exactCents(item.after.price)];
        if (Date.parse(rule.definition.action.endsAt) <= Date.parse(run.startedAt)) {
          this.store.endSale(rule.id, item.listingId);
        } else if (before !== null && after !== null) {
          this.store.putOnSale(rule.id, item.listingId, Number(before), Number(after));
        }
      }
      return undefined;
    }
    const { status, code } = answer;
    if (PAUSE_CODES.has(code ?? '') || status === 0 || status >= 500 || status === 429) {
      return { kind: 'pause', answer } satisfies Halt;
    }
    this.store.settleItem(run.id, item.listingId, 'failed', {
      status,
      reason: code ?? `status_${status}`,
      why: FAILURE_WORDS[code ?? ''] ?? 'the marketplace refused the change',
      at: this.iso(),
    });
    this.record(run, rule, item, answer);
    // A refusal of the account or key holds for every listing: sending more would only repeat it.
    return status === 401 || status === 403 ? ({ kind: 'stop', answer } satisfies Halt) : undefined;
  }

  private retries(answer: ApiAnswer): boolean {
    return (
      answer.code === 'idempotency_request_in_flight' || (answer.status === -1 && !this.closed)
    );
  }

  /** PUT one listing's fields under the run item's Idempotency-Key. */
  private async write(item: RunItem): Promise<ApiAnswer> {
    const none = { retryAfterSeconds: null, body: null, requestId: null };
    try {
      const response = await this.client.transport.request({
        method: 'PUT',
        path: `/listings/${encodeURIComponent(item.listingId)}.json`,
        body: { listing: item.after },
        ...(item.idempotencyKey ? { idempotencyKey: item.idempotencyKey } : {}),
        signal: this.abort.signal,
        priority: 'background',
      });
      const requestId = response.meta.requestId ?? null;
      return { ...none, status: response.status, code: null, body: response.body, requestId };
    } catch (error) {
      if (!isApiError(error)) throw error;
      if (error.code === CLIENT_ERROR_CODES.aborted) return { ...none, status: -1, code: 'gone' };
      if (error.status === 0) return { ...none, status: 0, code: 'upstream_unreachable' };
      return {
        ...none,
        status: error.status,
        code: error.code,
        retryAfterSeconds: error.retryAfter ?? null,
        requestId: error.requestId ?? null,
      };
    }
  }

  /** The change in the activity log, as made by the rule, with who created it. */
  private record(run: RunRecord, rule: StoredRule | undefined, item: RunItem, answer: ApiAnswer) {
    const activity = this.options.activity;
    if (!activity) return;
    try {
      const changes: ActivityChanges = {};
      const before = item.before as Record<string, Scalar | undefined>;
      for (const [field, after] of Object.entries(item.after)) {
        changes[field] = before[field] === undefined ? { after } : { before: before[field], after };
      }
      const name = rule?.definition.name ?? `Rule ${run.ruleId}`;
      const { status, code } = answer;
      activity.insert({
        at: this.iso(),
        actor: {
          name: run.trigger === 'undo' ? `Undo of rule “${name}”` : `Rule “${name}”`,
          role: 'rule',
        },
        action: item.after.status === 'active' ? 'reactivate' : 'update',
        method: 'PUT',
        path: `/2026-07/listings/${encodeURIComponent(item.listingId)}.json`,
        listingId: item.listingId,
        bulkJobId: null,
        changes,
        outcome:
          status >= 200 && status < 300
            ? 'ok'
            : status >= 500 || status === 0
              ? 'failed'
              : 'refused',
        status,
        code,
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
        const { daily, time, timeZone } = rule.definition.schedule;
        if (!rule.enabled || !daily) continue;
        const local = localDayAndTime(now, timeZone);
        if (local.time < time || !this.store.claimScheduledDay(rule.id, local.day)) continue;
        this.startRun(rule, 'schedule', null).catch((error: unknown) => {
          serverLog.warn({ err: error, ruleId: rule.id }, 'A scheduled rule could not start');
        });
      }
    } catch (error) {
      serverLog.error({ err: error }, 'The rules schedule could not be read');
    }
  }

  /** What each rule's next scheduled run would do to a listing, as the replica holds it now. */
  async upcoming(listingId: string): Promise<LineAnswer> {
    // A page view never waits for a read.
    const listing = this.source.known(listingId);
    return listing ? this.lines.line(listing) : { upcoming: [], busyMs: 0 };
  }
}

function newItemOf(item: PlanItem): NewRunItem {
  const { listingId, title, why } = item;
  const floorCents = item.floorCents === null ? null : Number(item.floorCents);
  const base = { listingId, title, why, floorCents };
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
  const { before, after } = item;
  return {
    ...base,
    state: 'pending',
    reason: null,
    before,
    after,
    markdownCents: Number(item.markdownCents),
  };
}

/** Whether the listing still shows what the run's change set. */
function stillAsLeft(listing: ListingFacts, { after }: RunItem): boolean {
  if (after.price !== undefined && exactCents(after.price) !== listing.priceCents) return false;
  const offer = after.minimum_offer;
  if (
    offer !== undefined &&
    (offer === null ? null : exactCents(offer)) !== listing.minimumOfferCents
  ) {
    return false;
  }
  return after.accepts_offers === undefined || after.accepts_offers === listing.acceptsOffers;
}

/** The fields that put back what a change replaced; null when a write can undo nothing. */
function undoFields({ before, after }: RunItem): RunItem['after'] | null {
  const back: RunItem['after'] = {};
  if (before.price !== undefined) back.price = before.price;
  // Turning offers off also clears the minimum offer (the spec's rule).
  if (before.accepts_offers === false) back.accepts_offers = false;
  else if (after.minimum_offer !== undefined) back.minimum_offer = before.minimum_offer ?? null;
  // A relist is undone by taking it off sale again, as a draft.
  if (after.status === 'active' && before.status && before.status !== 'active')
    back.status = 'draft';
  return Object.keys(back).length ? back : null;
}
