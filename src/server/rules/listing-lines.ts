import { formatCents } from '../../shared/money';
import type { Upcoming } from '../../shared/rule-answers';
import type { ActivityStore } from '../activity/activity-store';
import { inSlices, RulePlanner, type PlanContext, type PlanItem } from './rule-plan';
import { runAtDay } from './rule-schedule';
import type { ListingFacts, ReplicaListings } from './replica-listings';
import type { RulesStore, StoredRule } from './rules-store';

/** A listing's line (each daily rule's next change), kept until its inputs change or a run is due. */

/** A listing's line, and the ms of this server's time it took to plan (0: it was kept). */
type LineAnswer = { upcoming: Upcoming[]; busyMs: number };

/** How far ahead a line looks for a rule's next change. */
export const HORIZON_DAYS = 60;
/** The longest stretch of planning before the event loop gets a turn. */
const SLICE_MS = 4;
/** Listings whose lines are kept (the least recently asked go first). */
const KEPT_LINES = 5_000;
/** Skips that only time clears (and, once cleared, stay cleared). */
const WAITING = new Set(['too_young', 'not_due', 'sale_not_started', 'edited_by_person']);
const NONE: ReadonlyMap<string, never> = new Map<string, never>();

const waiting = (item: PlanItem | undefined) => WAITING.has(item?.reason ?? '');
const bigintText = (_key: string, value: unknown) =>
  typeof value === 'bigint' ? value.toString() : value;
interface RunTimes {
  stamp: string;
  from: number;
  until: number;
  /** Days ahead → the run's time, as far as asked. */
  at: Map<number, number>;
}

const one = <T>(id: string, value: T | undefined): ReadonlyMap<string, T> =>
  value === undefined ? NONE : new Map([[id, value]]);

export class ListingLines {
  private readonly kept = new Map<string, { key: string; until: number; upcoming: Upcoming[] }>();
  /** Two callers asking at once for one listing share one planning. */
  private readonly planning = new Map<string, { key: string; work: Promise<LineAnswer> }>();
  /** How many lines were planned (not answered from what was kept) since the start. */
  plannedCount = 0;
  /** Each rule's run times from when first asked: the same for every listing until one is due. */
  private readonly runs = new Map<number, RunTimes>();

  constructor(
    private readonly store: RulesStore,
    private readonly source: ReplicaListings,
    private readonly activity: ActivityStore | undefined,
    private readonly now: () => number,
  ) {}

  /** What each rule's next scheduled run would do to a listing as held now (never waiting for a read). */
  upcoming(listingId: string): Promise<LineAnswer> {
    const listing = this.source.known(listingId);
    if (!listing) return Promise.resolve({ upcoming: [], busyMs: 0 });
    const now = this.now();
    const edited = this.activity?.personEditSince(listing.id, 0);
    const key = `${this.store.version}|${edited ?? ''}|${JSON.stringify(listing, bigintText)}`;
    const kept = this.kept.get(listing.id);
    if (kept && kept.key === key && now < kept.until) {
      // Asked again: the last to leave.
      this.kept.delete(listing.id);
      this.kept.set(listing.id, kept);
      return Promise.resolve({ upcoming: kept.upcoming, busyMs: 0 });
    }
    const current = this.planning.get(listing.id);
    if (current?.key === key) return current.work.then(({ upcoming }) => ({ upcoming, busyMs: 0 }));
    const work = this.plan(listing, key, edited, now).finally(() => {
      if (this.planning.get(listing.id)?.work === work) this.planning.delete(listing.id);
    });
    this.planning.set(listing.id, { key, work });
    return work;
  }

  private async plan(listing: ListingFacts, key: string, edited: number | undefined, now: number) {
    this.plannedCount++;
    const history = this.store.historyOf(listing.id);
    const upcoming: Upcoming[] = [];
    let until = now + 24 * 3_600_000;
    const rules = this.store.rules();
    const daily = rules.filter((rule) => rule.enabled && rule.definition.schedule.daily);
    const busyMs = await inSlices(daily, SLICE_MS, (rule) => {
      const runs = this.runTimes(rule, now);
      until = Math.min(until, runs.until);
      const next = this.nextChange(rule, listing, runs, {
        personEdits: one(listing.id, edited),
        lastChangedByRule: one(listing.id, history.lastChanges.get(rule.id)),
        onSale: one(listing.id, history.sales.get(rule.id)),
      });
      if (next?.item?.kind !== 'write') return;
      const { after, floorCents } = next.item;
      upcoming.push({
        ruleId: rule.id,
        ruleName: rule.definition.name,
        at: new Date(next.at).toISOString(),
        after,
        floor: floorCents === null ? null : formatCents(floorCents),
      });
    });
    if (this.runs.size > 2 * rules.length) this.runs.clear();
    this.kept.delete(listing.id);
    this.kept.set(listing.id, { key, until, upcoming });
    if (this.kept.size > KEPT_LINES) this.kept.delete(this.kept.keys().next().value!);
    return { upcoming, busyMs };
  }

  private runTimes(rule: StoredRule, now: number): RunTimes {
    const { time, timeZone } = rule.definition.schedule;
    const stamp = `${time}|${timeZone}`;
    const kept = this.runs.get(rule.id);
    if (kept && kept.stamp === stamp && now < kept.until) return kept;
    const first = runAtDay({ time, timeZone }, now, 0);
    // Inside the run's own quarter hour "now" is the run: the line is kept a minute at most.
    const until = first > now ? first : now + 60_000;
    const runs = { stamp, from: now, until, at: new Map([[0, first]]) };
    this.runs.set(rule.id, runs);
    return runs;
  }

  /** The rule's first scheduled run that changes the listing, within the horizon, and the change. */
  private nextChange(
    rule: StoredRule,
    listing: ListingFacts,
    runs: RunTimes,
    history: Omit<PlanContext, 'now' | 'explain'>,
  ) {
    // The listing's floor under this rule: the same whichever day is planned.
    const kept = {};
    const planAt = (day: number) => {
      const at = runs.at.get(day) ?? runAtDay(rule.definition.schedule, runs.from, day);
      runs.at.set(day, at);
      // The line shows each change's price, never its words.
      const planner = new RulePlanner(rule.definition, { ...history, now: at, explain: false });
      planner.add(listing, kept);
      return { at, item: planner.items[0] };
    };
    const today = planAt(0);
    if (!waiting(today.item)) return today.item && today;
    // A wait clears with time alone and stays cleared: halving the days finds the first run after.
    let [low, high] = [0, HORIZON_DAYS];
    let found: ReturnType<typeof planAt> | undefined;
    while (high - low > 1) {
      const middle = (low + high) >> 1;
      const planned = planAt(middle);
      if (waiting(planned.item)) low = middle;
      else [high, found] = [middle, planned];
    }
    return found;
  }
}
