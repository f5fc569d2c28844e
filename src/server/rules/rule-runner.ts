import { exactCents } from '../../shared/money';
import { serverLog } from '../log';
import { ListingLines } from './listing-lines';
import { ReplicaListings, type ListingFacts } from './replica-listings';
import type { RuleDefinition } from '../../shared/rule-definition';
import { inSlices, RulePlanner, skipOf, writeOf } from './rule-plan';
import type { PlanItem, SkipReason } from './rule-plan';
import { DAY_MS, DUE_WINDOW_MS, localDayAndTime, runAtDay } from './rule-schedule';
import { planDiff, planKey } from './plan-key';
import { RunSender, type RuleRunnerOptions } from './rule-send';
import type { RunItem, RunRecord, StoredRule } from './rules-store';

/** Plans the rules over the replica's listings, starts their runs by hand, schedule and undo. */

export type { RuleRunnerOptions };

/** The longest stretch of a preview's planning before the event loop gets a turn. */
const PLAN_SLICE_MS = 8;
const GONE = 'sold or no longer on sale';

export class RuleRunner extends RunSender {
  private timer: NodeJS.Timeout | undefined;
  /** The plans previewed lately, by key: what a refused run compares with. */
  private readonly previewed = new Map<string, PlanItem[]>();
  readonly source = new ReplicaListings(this.options.replica, this.options.costs);
  /** The listings' rule lines, kept until what they read changes. */
  readonly lines = new ListingLines(this.store, this.source, this.options.activity, this.now);

  /** Resumes what a restart interrupted and starts looking at the schedule. */
  start(): void {
    this.tick();
  }

  /** Sets the timer for the next moment a rule or paused run is due, at least every `tickMs`. */
  protected arm(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    const now = this.now();
    const due = [
      ...this.store.unfinishedRuns().map((run) => run.resumeAt ?? 0),
      ...this.store.rules().map((rule) => this.nextRun(rule) ?? 0),
    ].filter((at) => at > now);
    const next = Math.min(now + (this.options.tickMs ?? 15_000), ...due);
    this.timer = setTimeout(() => this.tick(), next - now);
    this.timer.unref();
  }

  /** When a rule next runs by itself (epoch ms): a sale's start or end, a daily time; null: never. */
  nextRun({ enabled, definition }: StoredRule): number | null {
    if (!enabled) return null;
    const now = this.now();
    const { action, schedule } = definition;
    if (action.kind === 'sale') {
      return [action.startsAt, action.endsAt].map(Date.parse).find((at) => at > now) ?? null;
    }
    if (!schedule.daily) return null;
    const at = runAtDay(schedule, now, 0);
    // A run due now starts within a tick: the one after it is the next.
    return at > now ? at : runAtDay(schedule, now + DUE_WINDOW_MS, 0);
  }

  /** Stops sending: a write in flight stays pending, sent again under its key after a start. */
  override async close(): Promise<void> {
    clearTimeout(this.timer);
    await super.close();
  }

  /** What a rule (kept, or a draft) would do now, planned in slices that never hold the loop. */
  async preview(definition: RuleDefinition, ruleId?: number) {
    const listings = await this.source.listings();
    const now = this.now();
    const since = now - Math.max(definition.skipEditedWithinDays, 0) * DAY_MS;
    const planner = new RulePlanner(definition, {
      now,
      personEdits: this.options.activity?.personEdits(since) ?? new Map(),
      lastChangedByRule: ruleId === undefined ? new Map() : this.store.lastChanges(ruleId),
      onSale: ruleId === undefined ? new Map() : this.store.salesOf(ruleId),
    });
    const busyMs = await inSlices([...listings.values()], PLAN_SLICE_MS, (listing) =>
      planner.add(listing),
    );
    const plan = planKey(planner.items);
    if (ruleId !== undefined) {
      this.previewed.delete(plan);
      this.previewed.set(plan, planner.items);
      // A few recent plans are enough to say what changed; the oldest goes first.
      if (this.previewed.size > 20) this.previewed.delete(this.previewed.keys().next().value!);
    }
    const { items, changes, markdownCents } = planner;
    // `read`: every listing read, in the rule's scope or not.
    return { items, read: listings.size, busyMs, plan, changes, markdownCents };
  }

  /**
   * Starts of a rule and undos of a run, one at a time each: a start reads and plans before it
   * records its run, so a second press meanwhile must wait to find that run, not start its own.
   */
  private readonly starting = new Map<string, Promise<unknown>>();

  private inTurn<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.starting.get(key) ?? Promise.resolve();
    const turn = before.catch(() => undefined).then(task);
    this.starting.set(key, turn);
    const done = () => {
      if (this.starting.get(key) === turn) this.starting.delete(key);
    };
    turn.then(done, done);
    return turn;
  }

  /** Plans, records and starts a run; with `asShown` (a preview's key) another plan is refused. */
  startRun(rule: StoredRule, trigger: 'manual' | 'schedule', by: string | null, asShown?: string) {
    return this.inTurn(`rule ${rule.id}`, () => this.startNow(rule, trigger, by, asShown));
  }

  private async startNow(
    rule: StoredRule,
    trigger: 'manual' | 'schedule',
    by: string | null,
    asShown?: string,
  ) {
    const unfinished = this.store.runs(rule.id, 5).find((run) => !run.finishedAt);
    if (unfinished) return unfinished;
    const { items, plan, changes, markdownCents } = await this.preview(rule.definition, rule.id);
    if (asShown !== undefined && asShown !== plan) {
      const changed = planDiff(this.previewed.get(asShown), items);
      return { changed, plan, changes, markdownCents };
    }
    return this.send({ ruleId: rule.id, trigger, by }, items);
  }

  /** Puts back what a run changed where no one changed it since; the rest is skipped and says why. */
  undo(run: RunRecord, by: string | null): Promise<RunRecord> {
    return this.inTurn(`undo ${run.id}`, () => this.undoNow(run, by));
  }

  private async undoNow(run: RunRecord, by: string | null): Promise<RunRecord> {
    // An undo of this run made while this one waited its turn is the answer.
    const undoneBy = this.store.run(run.id)?.undoneBy;
    const made = undoneBy === null || undoneBy === undefined ? undefined : this.store.run(undoneBy);
    if (made) return made;
    const listings = await this.source.listings();
    const items = this.store.items(run.id).flatMap((item): PlanItem[] => {
      if (item.state !== 'done') return [];
      const { listingId: id, title } = item;
      const floorCents = item.floorCents === null ? null : BigInt(item.floorCents);
      const skip = (reason: SkipReason, why?: string) => [
        skipOf({ id, title }, reason, floorCents, why),
      ];
      const now = listings.get(id);
      if (!now || now.unavailableReason === 'sold') return skip('inactive', GONE);
      if (now.status !== 'active' && item.after.status !== 'active') return skip('inactive', GONE);
      const since = Date.parse(item.at ?? run.startedAt);
      const edited = this.options.activity?.personEditSince(id, since);
      if (edited !== undefined || !stillAsLeft(now, item)) return skip('changed_since');
      const back = undoFields(item);
      if (!back) return skip('unchanged', 'nothing to put back');
      const why = 'put back as it was before the run';
      return [writeOf({ id, title }, { before: item.after, after: back, floorCents, why })];
    });
    return this.send({ ruleId: run.ruleId, trigger: 'undo', by, undoOf: run.id }, items);
  }

  /** Resumes the runs due (paused, or cut by a restart), starts the rules due, each moment once. */
  tick(): void {
    if (this.closed) return;
    const now = this.now();
    try {
      // A running run not being sent is one a restart interrupted (a running run has no resumeAt).
      for (const run of this.store.unfinishedRuns()) {
        if ((run.resumeAt ?? 0) <= now) this.drive(run.id);
      }
      for (const rule of this.store.rules()) {
        const moment = rule.enabled ? dueMoment(rule, now) : null;
        // A run still going holds the moment: the end of a sale waits for its start to be sent.
        if (moment === null || this.store.runs(rule.id, 5).some((run) => !run.finishedAt)) continue;
        if (!this.store.claimScheduledDay(rule.id, moment)) continue;
        this.startRun(rule, 'schedule', null).catch((error: unknown) => {
          serverLog.warn({ err: error, ruleId: rule.id }, 'A scheduled rule could not start');
        });
      }
    } catch (error) {
      serverLog.error({ err: error }, 'The rules schedule could not be read');
    }
    this.arm();
  }
}

/** The moment a rule is due at `now` (its claim on disk), or null: nothing is due. */
function dueMoment({ definition }: StoredRule, now: number): string | null {
  const { action, schedule } = definition;
  if (action.kind === 'sale') {
    if (now >= Date.parse(action.endsAt)) return `sale end ${action.endsAt}`;
    return now >= Date.parse(action.startsAt) ? `sale start ${action.startsAt}` : null;
  }
  if (!schedule.daily) return null;
  const local = localDayAndTime(now, schedule.timeZone);
  return local.time < schedule.time ? null : local.day;
}

/** Whether the listing still shows what the run's change set. */
function stillAsLeft(listing: ListingFacts, { after }: RunItem): boolean {
  return (
    (after.price === undefined || exactCents(after.price) === listing.priceCents) &&
    (after.minimum_offer === undefined ||
      exactCents(after.minimum_offer) === listing.minimumOfferCents) &&
    (after.accepts_offers === undefined || after.accepts_offers === listing.acceptsOffers)
  );
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
