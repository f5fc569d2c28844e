import { exactCents } from '../../shared/money';
import { serverLog } from '../log';
import { ListingLines, type LineAnswer } from './listing-lines';
import { ReplicaListings, type KeptCosts } from './replica-listings';
import type { RuleDefinition, StoredRule } from './rule-definition';
import {
  RulePlanner,
  skipOf,
  type ListingFacts,
  type PlanContext,
  type PlanItem,
  type SkipReason,
} from './rule-plan';
import { localDayAndTime } from './rule-schedule';
import { RunSender, type SendOptions } from './rule-send';
import type { RulesStore, RunItem, RunRecord } from './rules-store';

/** Plans the rules over the replica's listings, starts their runs by hand, schedule and undo. */

export interface RuleRunnerOptions extends SendOptions {
  /** The seller's costs kept by the hub, read over the marketplace's. */
  costs?: KeptCosts;
  /** The rules' clock (epoch ms): their schedule, pauses and their routes' session budget. */
  now?: () => number;
  /** How often the schedule and paused runs are looked at. */
  tickMs?: number;
}

export interface Preview {
  items: PlanItem[];
  /** Every listing read, in the rule's scope or not. */
  read: number;
  /** Milliseconds of this server's time the planning took. */
  busyMs: number;
}

const DAY_MS = 86_400_000;
/** The longest stretch of a preview's planning before the event loop gets a turn. */
const PLAN_SLICE_MS = 8;
const GONE = 'sold or no longer on sale';

export class RuleRunner {
  private readonly store: RulesStore;
  readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly source: ReplicaListings;
  private readonly sender: RunSender;
  /** The listings' rule lines, kept until what they read changes. */
  readonly lines: ListingLines;

  constructor(private readonly options: RuleRunnerOptions) {
    this.store = options.store;
    this.now = options.now ?? Date.now;
    this.lines = new ListingLines(this.store, options.activity, this.now);
    this.source = new ReplicaListings(options.replica, options.costs);
    this.sender = new RunSender(options, this.now, () => this.tick());
  }

  /** Resumes what a restart interrupted and starts looking at the schedule. */
  start(): void {
    for (const run of this.store.unfinishedRuns()) {
      if (run.status === 'running') this.sender.drive(run.id);
    }
    this.timer = setInterval(() => this.tick(), this.options.tickMs ?? 15_000);
    this.timer.unref();
  }

  /** Stops sending: a write in flight stays pending, sent again under its key after a start. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.sender.close();
  }

  sending(runId: number): boolean {
    return this.sender.sending(runId);
  }

  /** Waits for a run's sending to end. */
  settled(runId: number): Promise<void> {
    return this.sender.settled(runId);
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
    return this.begin({ ruleId: rule.id, trigger, by }, items);
  }

  /** Puts back what a run changed where no one changed it since; the rest is skipped and says why. */
  async undo(run: RunRecord, by: string | null): Promise<RunRecord> {
    const listings = await this.listings();
    const items = this.store.items(run.id).flatMap((item): PlanItem[] => {
      if (item.state !== 'done') return [];
      const { listingId, title } = item;
      const floorCents = item.floorCents === null ? null : BigInt(item.floorCents);
      const skip = (reason: SkipReason, why?: string) => [
        skipOf({ id: listingId, title }, reason, floorCents, why),
      ];
      const now = listings.get(listingId);
      if (!now || now.unavailableReason === 'sold') return skip('inactive', GONE);
      if (now.status !== 'active' && item.after.status !== 'active') return skip('inactive', GONE);
      const since = Date.parse(item.at ?? run.startedAt);
      const edited = this.options.activity?.personEditSince(listingId, since);
      if (edited !== undefined || !stillAsLeft(now, item)) return skip('changed_since');
      const back = undoFields(item);
      if (!back) return skip('unchanged', 'nothing to put back');
      const why = 'put back as it was before the run';
      const put = { kind: 'write', before: item.after, after: back, markdownCents: 0n } as const;
      return [{ listingId, title, floorCents, why, ...put }];
    });
    return this.begin({ ruleId: run.ruleId, trigger: 'undo', by, undoOf: run.id }, items);
  }

  private begin(run: Omit<Parameters<RulesStore['createRun']>[0], 'at'>, items: PlanItem[]) {
    const runId = this.store.createRun({ ...run, at: new Date(this.now()).toISOString() }, items);
    this.sender.drive(runId);
    return this.store.run(runId)!;
  }

  /** Resumes paused runs whose wait is over and starts the rules due by their schedule. */
  tick(): void {
    if (this.closed) return;
    const now = this.now();
    try {
      for (const run of this.store.unfinishedRuns()) {
        if (run.status === 'paused' && (run.resumeAt ?? 0) <= now) this.sender.drive(run.id);
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
