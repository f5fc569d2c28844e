import { setImmediate } from 'node:timers/promises';
import { exactCents, formatCents, formatDollars as money } from '../../shared/money';
import {
  adjustedCents,
  formatPercent,
  minimumOfferFromPercent,
  MIN_PRICE_CENTS,
  type PriceChange,
  type PriceEnding,
} from '../../shared/price-math';
import type { WriteFields } from '../../shared/rule-answers';
import type { RuleDefinition, RuleFloor, RuleScope } from '../../shared/rule-definition';
import type { ListingFacts } from './replica-listings';
import { DAY_MS } from './rule-schedule';

/** What one rule would do to each listing, in integer cents rounded as the bulk editor rounds. */

const SKIP_WORDS = {
  sold: 'sold',
  inactive: 'not on sale',
  lot: 'a lot (its cost is not one card’s)',
  no_cost: 'no cost known',
  at_floor: 'already at its floor',
  floor_above_price: 'its floor is above the price',
  edited_by_person: 'edited by a person recently',
  too_young: 'not listed long enough',
  not_due: 'lowered recently; next step not due',
  unchanged: 'already as the rule wants',
  not_relistable: 'cannot be relisted',
  sale_not_started: 'the sale has not started',
  changed_since: 'changed since the rule set it',
  cap_reached: 'over this run’s cap',
};
/** Why a listing in scope is left alone. */
export type SkipReason = keyof typeof SKIP_WORDS;

/** What a plan does to one listing, as a run keeps it: a write (no reason), or a skip (no fields). */
export interface PlanItem {
  listingId: string;
  title: string;
  kind: 'write' | 'skip';
  reason: SkipReason | null;
  why: string;
  before: WriteFields;
  after: WriteFields;
  floorCents: bigint | null;
  markdownCents: bigint;
}

/** What the planner knows beyond the listings: time, who edited what, what the rule did before. */
export interface PlanContext {
  now: number;
  /** Listing id → epoch ms of a person's newest edit (rules' writes left out). */
  personEdits: ReadonlyMap<string, number>;
  /** Listing id → epoch ms of this rule's newest change to it. */
  lastChangedByRule: ReadonlyMap<string, number>;
  /** The listings on sale by this rule, with their price before and on sale. */
  onSale: ReadonlyMap<string, Sale>;
  /** False: a lowered price's words are left empty, for a plan nobody reads (a listing's line). */
  explain?: boolean;
}

export type Sale = { originalCents: bigint; saleCents: bigint };

/** Whole cents of an amount the schema accepted, hundredths of a percentage (12.5 → 1250). */
const amountCents = (value: string): bigint => exactCents(value) ?? 0n;
const hundredthsOf = (value: number): bigint => BigInt(Math.round(value * 100));

const ROUNDS_UP = 'the step with its price ending is no lower than the price';
const BP = 10_000n;
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
const roundedFee = (price: bigint, bp: bigint) => (price * bp * 2n + BP) / (2n * BP);

/** The lowest price whose payout (less the fee, rounded half up as the marketplace does) is `need`. */
function breakEvenCents(need: bigint, feeHundredths: bigint): bigint {
  if (need <= 0n) return 0n;
  if (feeHundredths >= BP) return need * 1000n;
  let price = ceilDiv(need * BP, BP - feeHundredths) - 2n;
  if (price < 0n) price = 0n;
  while (price - roundedFee(price, feeHundredths) < need) price++;
  return price;
}

/** The higher of break-even with the margin in and the fixed amount; null: no cost, skipped. */
function floorOf(floor: RuleFloor, { costCents: cost, promoted }: ListingFacts): bigint | null {
  if (cost === null && floor.withoutCost === 'skip') return null;
  let out = amountCents(floor.fixed);
  if (cost !== null) {
    const margin =
      floor.margin.kind === 'amount'
        ? amountCents(floor.margin.amount)
        : ceilDiv(cost * hundredthsOf(floor.margin.percent), BP);
    // The promotion's extra 3 % is charged on a promoted listing's sale.
    const breakEven = breakEvenCents(
      cost + margin,
      hundredthsOf(floor.platformFeePercent) + (promoted ? 300n : 0n),
    );
    if (breakEven > out) out = breakEven;
  }
  return out < MIN_PRICE_CENTS ? MIN_PRICE_CENTS : out;
}

/** The scope's fields a listing must match word for word, when the rule names them. */
const SAME = ['status', 'grader', 'grade', 'category'] as const;

function inScope(scope: RuleScope, listing: ListingFacts, now: number): boolean {
  if (SAME.some((field) => scope[field] && listing[field] !== scope[field])) return false;
  const price = listing.priceCents;
  if (scope.priceMin !== undefined && price < amountCents(scope.priceMin)) return false;
  if (scope.priceMax !== undefined && price > amountCents(scope.priceMax)) return false;
  const age = ageDays(listing, now);
  if (scope.minAgeDays !== undefined && (age === null || age < scope.minAgeDays)) return false;
  return scope.maxAgeDays === undefined || (age !== null && age <= scope.maxAgeDays);
}

function ageDays(listing: ListingFacts, now: number): number | null {
  return listing.listedAt === null ? null : Math.floor((now - listing.listedAt) / DAY_MS);
}

/** A skip's fields: it writes nothing. */
const WRITES_NOTHING = { before: Object.freeze({}), after: Object.freeze({}), markdownCents: 0n };
/** A listing left alone (a listing, or a run's item) and why. */
export const skipOf = (
  { id: listingId, title }: Pick<ListingFacts, 'id' | 'title'>,
  reason: SkipReason,
  floorCents: bigint | null = null,
  why = SKIP_WORDS[reason],
): PlanItem => ({ listingId, title, kind: 'skip', reason, why, floorCents, ...WRITES_NOTHING });

/** A listing changed (a listing, or an undo's item): what it writes, from what, and why. */
export const writeOf = (
  { id: listingId, title }: Pick<ListingFacts, 'id' | 'title'>,
  change: Pick<PlanItem, 'before' | 'after' | 'floorCents' | 'why'> & { markdownCents?: bigint },
): PlanItem => ({ listingId, title, kind: 'write', reason: null, markdownCents: 0n, ...change });

/** What a rule would do to one listing in its scope (`kept`: its floor, across a line's days). */
export function planListing(
  rule: RuleDefinition,
  listing: ListingFacts,
  context: PlanContext,
  kept: { floorCents?: bigint | null } = {},
): PlanItem {
  const { action } = rule;
  const { now } = context;
  if (listing.unavailableReason === 'sold') return skipOf(listing, 'sold');
  const edited = context.personEdits.get(listing.id);
  if (edited !== undefined && now - edited < rule.skipEditedWithinDays * DAY_MS) {
    return skipOf(listing, 'edited_by_person');
  }
  if (action.kind === 'relist') {
    if (listing.status === 'active') return skipOf(listing, 'unchanged');
    if (listing.unavailableReason !== 'expired' || !listing.canReactivate) {
      return skipOf(listing, 'not_relistable');
    }
    const hours = action.durationHours;
    return writeOf(listing, {
      before: { status: listing.status },
      after: { status: 'active', duration_hours: hours },
      floorCents: null,
      why: `its window ended unsold; relisted for ${hours / 24} days`,
    });
  }
  // Every other action changes prices: only on listings for sale, never on a deactivated one.
  if (listing.status !== 'active' || listing.unavailableReason !== null) {
    return skipOf(listing, 'inactive');
  }
  if (listing.isLot) return skipOf(listing, 'lot');
  if (kept.floorCents === undefined) kept.floorCents = floorOf(rule.floor, listing);
  const floor = kept.floorCents;
  if (floor === null) return skipOf(listing, 'no_cost');
  const age = ageDays(listing, now);
  const explain = context.explain !== false;

  if (action.kind === 'markdown') {
    if (age === null || age < action.afterDays) return skipOf(listing, 'too_young', floor);
    const last = context.lastChangedByRule.get(listing.id);
    if (last !== undefined && now - last < action.everyDays * DAY_MS) {
      return skipOf(listing, 'not_due', floor);
    }
    const { step } = action;
    const change: PriceChange =
      step.kind === 'percent'
        ? { kind: 'percent', direction: 'lower', hundredths: hundredthsOf(step.percent) }
        : { kind: 'amount', direction: 'lower', cents: amountCents(step.amount) };
    return lowered(listing, change, action.ending, floor, `listed ${age} days`, explain);
  }

  if (action.kind === 'offer_floor') {
    if (floor > listing.priceCents) return skipOf(listing, 'floor_above_price', floor);
    const share = minimumOfferFromPercent(listing.priceCents, hundredthsOf(action.percent));
    const raised = share.cents < floor;
    const offer = raised ? floor : share.cents;
    const { turnOnAfterDays } = action;
    const turnOn =
      !listing.acceptsOffers && turnOnAfterDays !== null && age !== null && age >= turnOnAfterDays;
    if (!listing.acceptsOffers && !turnOn) {
      return skipOf(listing, turnOnAfterDays === null ? 'unchanged' : 'too_young', floor);
    }
    if (listing.acceptsOffers && listing.minimumOfferCents === offer) {
      return skipOf(listing, 'unchanged', floor);
    }
    const was = listing.minimumOfferCents;
    const before: WriteFields = { minimum_offer: was === null ? null : formatCents(was) };
    const after: WriteFields = { minimum_offer: formatCents(offer) };
    if (turnOn) [before.accepts_offers, after.accepts_offers] = [false, true];
    const ofPrice = `${formatPercent(hundredthsOf(action.percent))} of ${money(listing.priceCents)}`;
    const words = raised
      ? `${ofPrice} is ${money(share.cents)}, raised to its floor ${money(floor)}`
      : `${ofPrice} is ${money(offer)}`;
    const why = `${turnOn ? `listed ${age} days: offers on; ` : ''}${words}`;
    return writeOf(listing, { before, after, floorCents: floor, why });
  }

  // A sale event: lowered from its start, put back at its end unless the seller changed it.
  const held = context.onSale.get(listing.id);
  if (now >= Date.parse(action.endsAt)) {
    if (!held) return skipOf(listing, 'unchanged', floor);
    if (listing.priceCents !== held.saleCents) return skipOf(listing, 'changed_since', floor);
    return writeOf(listing, {
      before: { price: formatCents(listing.priceCents) },
      after: { price: formatCents(held.originalCents) },
      floorCents: floor,
      why: `the sale ended; back to ${money(held.originalCents)}`,
    });
  }
  if (now < Date.parse(action.startsAt)) return skipOf(listing, 'sale_not_started', floor);
  if (held) return skipOf(listing, 'unchanged', floor);
  const hundredths = hundredthsOf(action.percent);
  const change: PriceChange = { kind: 'percent', direction: 'lower', hundredths };
  return lowered(listing, change, action.ending, floor, 'on sale', explain);
}

/** A price lowered by `change` with its ending, stopped at the floor; a skip when it would not fall. */
function lowered(
  listing: ListingFacts,
  change: PriceChange,
  ending: PriceEnding,
  floor: bigint,
  reason: string,
  explain: boolean,
): PlanItem {
  if (listing.priceCents <= floor) return skipOf(listing, 'at_floor', floor);
  const cents = adjustedCents(listing.priceCents, change, ending);
  const atFloor = cents === null || cents < floor;
  const next = cents === null || atFloor ? floor : cents;
  if (next >= listing.priceCents) return skipOf(listing, 'unchanged', floor, ROUNDS_UP);
  const why = !explain
    ? ''
    : atFloor
      ? `${reason}; stopped at its floor ${money(floor)}`
      : `${reason}; ${stepWords(listing.priceCents, change, ending)}`;
  const [before, after] = [
    { price: formatCents(listing.priceCents) },
    { price: formatCents(next) },
  ];
  const markdownCents = listing.priceCents - next;
  return writeOf(listing, { before, after, floorCents: floor, why, markdownCents });
}

const ENDING_WORDS = { cent: '', '99': 'ending in .99', whole: 'whole dollars' };

/** A lowering step in words: "15% off $50.00 is $42.50; ending in .99 makes it $42.99, 14.02% off" */
function stepWords(price: bigint, change: PriceChange, ending: PriceEnding): string {
  const step = change.kind === 'percent' ? formatPercent(change.hundredths) : money(change.cents);
  const stepped = adjustedCents(price, change, 'cent') ?? 0n;
  const ended = adjustedCents(price, change, ending) ?? stepped;
  const words = `${step} off ${money(price)} is ${money(stepped)}`;
  if (ended === stepped) return words;
  const off = formatPercent(((price - ended) * 10_000n + price / 2n) / price);
  return `${words}; ${ENDING_WORDS[ending]} makes it ${money(ended)}, ${off} off`;
}

/** A rule's plan built listing by listing, its caps applied as it goes (the rest waits a run). */
export class RulePlanner {
  readonly items: PlanItem[] = [];
  /** The writes planned so far, and the markdown they sum to. */
  changes = 0;
  markdownCents = 0n;
  private readonly maxMarkdown: bigint;
  private readonly saleEnded: boolean;

  constructor(
    private readonly rule: RuleDefinition,
    private readonly context: PlanContext,
  ) {
    this.maxMarkdown = amountCents(rule.caps.maxMarkdown);
    this.saleEnded = rule.action.kind === 'sale' && context.now >= Date.parse(rule.action.endsAt);
  }

  add(listing: ListingFacts, kept?: { floorCents?: bigint | null }): void {
    const { rule, context } = this;
    // A sale's end puts back every listing it lowered, whatever the scope says now.
    const held = this.saleEnded && context.onSale.has(listing.id);
    if (!held && !inScope(rule.scope, listing, context.now)) return;
    const item = planListing(rule, listing, context, kept);
    if (item.kind === 'write') {
      const markdown = this.markdownCents + item.markdownCents;
      if (this.changes >= rule.caps.maxListings || markdown > this.maxMarkdown) {
        this.items.push(skipOf(listing, 'cap_reached', item.floorCents));
        return;
      }
      this.changes++;
      this.markdownCents = markdown;
    }
    this.items.push(item);
  }
}

export function planRule(
  rule: RuleDefinition,
  listings: Iterable<ListingFacts>,
  context: PlanContext,
): PlanItem[] {
  const planner = new RulePlanner(rule, context);
  for (const listing of listings) planner.add(listing);
  return planner.items;
}

/** Runs `each` over `items`, the event loop getting a turn each `sliceMs`; answers the ms it took. */
export async function inSlices<T>(items: Iterable<T>, sliceMs: number, each: (item: T) => void) {
  let busyMs = 0;
  let sliceAt = performance.now();
  for (const item of items) {
    if (performance.now() - sliceAt > sliceMs) {
      busyMs += performance.now() - sliceAt;
      await setImmediate();
      sliceAt = performance.now();
    }
    each(item);
  }
  return busyMs + performance.now() - sliceAt;
}
