import { formatCents } from '../../shared/money';
import type { ActivityStore } from '../activity/activity-store';
import type { StoredRule } from './rule-definition';
import {
  RulePlanner,
  type KeptFloor,
  type ListingFacts,
  type PlanItem,
  type SkipReason,
  type WriteFields,
} from './rule-plan';
import { runAtDay } from './rule-schedule';
import type { RulesStore } from './rules-store';

/**
 * A listing's rule line (what the next scheduled run of each daily rule would do to it), planned
 * once per change and kept. A kept line holds the rules store's version, the listing as read
 * (price, cost, status...) and a person's newest edit of it: any of them changing plans it again,
 * as does the first scheduled run coming due. Planning yields to the event loop every few
 * milliseconds, and two callers asking at once for one listing share one planning.
 */

export interface Upcoming {
  ruleId: number;
  ruleName: string;
  at: string;
  after: WriteFields;
  floor: string | null;
}

export interface LineAnswer {
  upcoming: Upcoming[];
  /** Milliseconds of this server's time the answer took to plan (0: it was kept). */
  busyMs: number;
}

/** How far ahead a line looks for a rule's next change. */
export const HORIZON_DAYS = 60;
/** The longest stretch of planning before the event loop gets a turn. */
const SLICE_MS = 4;
/** Listings whose lines are kept (the least recently asked go first). */
const KEPT_LINES = 5_000;
/** Skips only time changes: the next days are looked at; any other will not change by waiting. */
const WAITING: ReadonlySet<SkipReason> = new Set([
  'too_young',
  'not_due',
  'sale_not_started',
  'edited_by_person',
]);

interface KeptLine {
  key: string;
  /** Epoch ms after which the line is planned again (a scheduled run came due). */
  until: number;
  upcoming: Upcoming[];
}

/** A rule's scheduled runs from `from`, day by day, worked out as they are asked for. */
interface Schedule {
  stamp: string;
  from: number;
  until: number;
  /** Day ahead → the run's time, as far as asked. */
  times: Map<number, number>;
}

/** What planning one rule for one listing holds for every day it looks at. */
interface Probe {
  rule: StoredRule;
  schedule: Schedule;
  listing: ListingFacts;
  personEdits: ReadonlyMap<string, number>;
  lastChangedByRule: ReadonlyMap<string, number>;
  onSale: ReadonlyMap<string, { originalCents: bigint; saleCents: bigint }>;
  kept: KeptFloor;
}

/** No entries (a listing with no edit, change or sale), shared by every plan. */
const NONE: ReadonlyMap<string, never> = new Map<string, never>();

/** Whether the plan is a skip that only waiting clears. */
function waiting(item: PlanItem | undefined): boolean {
  return item !== undefined && item.kind === 'skip' && WAITING.has(item.reason);
}

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const bigintText = (_key: string, value: unknown) =>
  typeof value === 'bigint' ? value.toString() : value;

export class ListingLines {
  private readonly kept = new Map<string, KeptLine>();
  private readonly planning = new Map<string, { key: string; work: Promise<LineAnswer> }>();
  private readonly schedules = new Map<number, Schedule>();
  private planned = 0;

  constructor(
    private readonly store: RulesStore,
    private readonly activity: ActivityStore | undefined,
    private readonly now: () => number,
  ) {}

  /** How many lines were planned (not answered from what was kept) since the start. */
  get plannedCount(): number {
    return this.planned;
  }

  /** The listing's line: the kept one while nothing it read has changed, else planned anew. */
  line(listing: ListingFacts): Promise<LineAnswer> {
    const now = this.now();
    const edited = this.activity?.personEditSince(listing.id, 0);
    const key = `${this.store.version}|${edited ?? ''}|${JSON.stringify(listing, bigintText)}`;
    const kept = this.kept.get(listing.id);
    if (kept && kept.key === key && now < kept.until) {
      // Asked again: the newest in the order of leaving.
      this.kept.delete(listing.id);
      this.kept.set(listing.id, kept);
      return Promise.resolve({ upcoming: kept.upcoming, busyMs: 0 });
    }
    const current = this.planning.get(listing.id);
    if (current && current.key === key) {
      return current.work.then((answer) => ({ upcoming: answer.upcoming, busyMs: 0 }));
    }
    const work = this.plan(listing, key, edited, now).finally(() => {
      if (this.planning.get(listing.id)?.work === work) this.planning.delete(listing.id);
    });
    this.planning.set(listing.id, { key, work });
    return work;
  }

  private async plan(
    listing: ListingFacts,
    key: string,
    edited: number | undefined,
    now: number,
  ): Promise<LineAnswer> {
    this.planned++;
    let busyMs = 0;
    let sliceAt = performance.now();
    const rules = this.store
      .rules()
      .filter((rule) => rule.enabled && rule.definition.schedule.daily);
    const history = this.store.historyOf(listing.id);
    const personEdits: ReadonlyMap<string, number> =
      edited === undefined ? NONE : new Map([[listing.id, edited]]);
    const out: Upcoming[] = [];
    let until = now + 24 * 3_600_000;
    for (const rule of rules) {
      if (performance.now() - sliceAt > SLICE_MS) {
        busyMs += performance.now() - sliceAt;
        await yieldTurn();
        sliceAt = performance.now();
      }
      const schedule = this.scheduleOf(rule, now);
      until = Math.min(until, schedule.until);
      const last = history.lastChanges.get(rule.id);
      const sale = history.sales.get(rule.id);
      const probe: Probe = {
        rule,
        schedule,
        listing,
        personEdits,
        lastChangedByRule: last === undefined ? NONE : new Map([[listing.id, last]]),
        onSale: sale === undefined ? NONE : new Map([[listing.id, sale]]),
        // The listing's floor under this rule: the same whichever day is planned.
        kept: {},
      };
      let day = 0;
      let item: PlanItem | undefined = this.planAt(probe, 0);
      if (waiting(item)) {
        // What waits clears with time alone (the listing's age, a step coming due, a sale's
        // start, a person's edit growing old) and stays cleared: the first run it has cleared
        // by is found by halving the days ahead, not by planning each.
        let low = 0;
        let high = HORIZON_DAYS;
        item = undefined;
        while (high - low > 1) {
          const middle = (low + high) >> 1;
          const planned = this.planAt(probe, middle);
          if (waiting(planned)) low = middle;
          else [high, item] = [middle, planned];
        }
        day = high;
      }
      if (item?.kind === 'write') {
        out.push({
          ruleId: rule.id,
          ruleName: rule.definition.name,
          at: new Date(this.runAt(rule, schedule, day)).toISOString(),
          after: item.after,
          floor: item.floorCents === null ? null : formatCents(item.floorCents),
        });
      }
    }
    busyMs += performance.now() - sliceAt;
    this.forgetSchedulesBut(rules);
    this.kept.delete(listing.id);
    this.kept.set(listing.id, { key, until, upcoming: out });
    if (this.kept.size > KEPT_LINES) {
      const oldest = this.kept.keys().next().value;
      if (oldest !== undefined) this.kept.delete(oldest);
    }
    return { upcoming: out, busyMs };
  }

  /** What the rule would do to the listing at its scheduled run `day` days ahead. */
  private planAt(probe: Probe, day: number): PlanItem | undefined {
    const planner = new RulePlanner(probe.rule.definition, {
      now: this.runAt(probe.rule, probe.schedule, day),
      personEdits: probe.personEdits,
      lastChangedByRule: probe.lastChangedByRule,
      onSale: probe.onSale,
      // The line shows each change's price, never its words.
      explain: false,
    });
    planner.add(probe.listing, probe.kept);
    return planner.items[0];
  }

  /** A rule's scheduled runs as from now: the same for every listing until the first comes due. */
  private scheduleOf(rule: StoredRule, now: number): Schedule {
    const { time, timeZone } = rule.definition.schedule;
    const stamp = `${time}|${timeZone}`;
    const kept = this.schedules.get(rule.id);
    if (kept && kept.stamp === stamp && now < kept.until) return kept;
    const first = runAtDay({ time, timeZone }, now, 0);
    // Inside the run's own quarter hour "now" is the run: the line is kept a minute at most.
    const schedule = {
      stamp,
      from: now,
      until: first > now ? first : now + 60_000,
      times: new Map([[0, first]]),
    };
    this.schedules.set(rule.id, schedule);
    return schedule;
  }

  private runAt(rule: StoredRule, schedule: Schedule, day: number): number {
    let at = schedule.times.get(day);
    if (at === undefined) {
      at = runAtDay(rule.definition.schedule, schedule.from, day);
      schedule.times.set(day, at);
    }
    return at;
  }

  private forgetSchedulesBut(rules: readonly StoredRule[]): void {
    if (this.schedules.size <= rules.length) return;
    const ids = new Set(rules.map((rule) => rule.id));
    for (const id of this.schedules.keys()) if (!ids.has(id)) this.schedules.delete(id);
  }
}
