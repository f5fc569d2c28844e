import {
  adjustPrice,
  adjustedCents,
  type PriceChange,
  type PriceEnding,
  minimumOfferFromPercent,
  MIN_PRICE_CENTS,
  withEnding,
} from '../../shared/price-math';
import { formatCents, formatDollars } from '../../shared/money';
import {
  amountCents,
  hundredthsOf,
  type RuleDefinition,
  type RuleFloor,
  type RuleScope,
} from './rule-definition';

/**
 * What one rule would do to each listing, decided from the listings as read, with no call made:
 * the preview shows it, the runner writes it. Money in integer cents (bigint), rounded as the bulk
 * editor rounds (shared/price-math), never below the floor.
 */

/** What the planner needs of a listing (the list view's fields, the card's cost joined in). */
export interface ListingFacts {
  id: string;
  title: string;
  status: string;
  unavailableReason: string | null;
  canReactivate: boolean;
  priceCents: bigint;
  minimumOfferCents: bigint | null;
  acceptsOffers: boolean;
  promoted: boolean;
  isLot: boolean;
  grader: string | null;
  grade: string | null;
  category: string | null;
  /** Epoch ms; null when the listing never went live. */
  listedAt: number | null;
  /** The card's own id (the inventory item), when the row names it. */
  cardId?: string | null;
  /** The card's cost in cents; null when not known. */
  costCents: bigint | null;
}

/** Why a listing in scope is left alone. */
export type SkipReason =
  | 'sold'
  | 'inactive'
  | 'lot'
  | 'no_cost'
  | 'at_floor'
  | 'floor_above_price'
  | 'edited_by_person'
  | 'too_young'
  | 'not_due'
  | 'unchanged'
  | 'not_relistable'
  | 'sale_not_started'
  | 'changed_since'
  | 'cap_reached';

export const SKIP_WORDS: Record<SkipReason, string> = {
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

/** The fields a rule writes, as decimal strings (the API's form). */
export interface WriteFields {
  price?: string;
  minimum_offer?: string | null;
  accepts_offers?: boolean;
  status?: string;
  duration_hours?: number;
}

export type PlanItem =
  | {
      listingId: string;
      title: string;
      kind: 'write';
      before: WriteFields;
      after: WriteFields;
      floorCents: bigint | null;
      /** The markdown this change takes off, in cents (0 when the price does not fall). */
      markdownCents: bigint;
      why: string;
    }
  | {
      listingId: string;
      title: string;
      kind: 'skip';
      reason: SkipReason;
      floorCents: bigint | null;
      why: string;
    };

/** What the planner knows beyond the listings: time, who edited what, what the rule did before. */
export interface PlanContext {
  now: number;
  /** Listing id → epoch ms of a person's newest edit (the activity log, rules' writes left out). */
  personEdits: ReadonlyMap<string, number>;
  /** Listing id → epoch ms of this rule's newest change to it. */
  lastChangedByRule: ReadonlyMap<string, number>;
  /** Sale events: the listings on sale by this rule, with their price before and on sale. */
  onSale: ReadonlyMap<string, { originalCents: bigint; saleCents: bigint }>;
  /**
   * False: a lowered price's words (`why`) are left empty, for a plan nobody reads (a rule's line
   * looking days ahead); the prices are the same.
   */
  explain?: boolean;
}

const DAY_MS = 86_400_000;
const ROUNDS_UP = 'the step with its price ending is no lower than the price';
const BP = 10_000n;
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
const roundedFee = (price: bigint, bp: bigint) => (price * bp * 2n + BP) / (2n * BP);

/**
 * The lowest price whose payout (price less the fee, rounded half up as the marketplace rounds it)
 * is at least `need`: cost plus margin.
 */
export function breakEvenCents(need: bigint, feeHundredths: bigint): bigint {
  if (need <= 0n) return 0n;
  if (feeHundredths >= BP) return need * 1000n;
  let price = ceilDiv(need * BP, BP - feeHundredths) - 2n;
  if (price < 0n) price = 0n;
  while (price - roundedFee(price, feeHundredths) < need) price++;
  return price;
}

/**
 * The floor of a listing: the higher of cost + fees + margin (break-even with the margin in) and
 * the fixed amount, never below the spec's least price; null when there is no cost and the rule
 * leaves such listings alone.
 */
export function floorOf(floor: RuleFloor, listing: Pick<ListingFacts, 'costCents' | 'promoted'>) {
  const fixed = amountCents(floor.fixed);
  if (listing.costCents === null) {
    if (floor.withoutCost === 'skip') return null;
    return fixed > MIN_PRICE_CENTS ? fixed : MIN_PRICE_CENTS;
  }
  const cost = listing.costCents;
  const margin =
    floor.margin.kind === 'amount'
      ? amountCents(floor.margin.amount)
      : ceilDiv(cost * hundredthsOf(floor.margin.percent), BP);
  // The promotion's extra 3 % is charged on a promoted listing's sale.
  const fee = hundredthsOf(floor.platformFeePercent) + (listing.promoted ? 300n : 0n);
  const breakEven = breakEvenCents(cost + margin, fee);
  let out = breakEven > fixed ? breakEven : fixed;
  if (out < MIN_PRICE_CENTS) out = MIN_PRICE_CENTS;
  return out;
}

export function inScope(scope: RuleScope, listing: ListingFacts, now: number): boolean {
  if (scope.status && listing.status !== scope.status) return false;
  if (scope.grader && listing.grader !== scope.grader) return false;
  if (scope.grade && listing.grade !== scope.grade) return false;
  if (scope.category && listing.category !== scope.category) return false;
  if (scope.priceMin !== undefined && listing.priceCents < amountCents(scope.priceMin)) {
    return false;
  }
  if (scope.priceMax !== undefined && listing.priceCents > amountCents(scope.priceMax)) {
    return false;
  }
  const age = ageDays(listing, now);
  if (scope.minAgeDays !== undefined && (age === null || age < scope.minAgeDays)) return false;
  if (scope.maxAgeDays !== undefined && (age === null || age > scope.maxAgeDays)) return false;
  return true;
}

export function ageDays(listing: Pick<ListingFacts, 'listedAt'>, now: number): number | null {
  return listing.listedAt === null ? null : Math.floor((now - listing.listedAt) / DAY_MS);
}

const money = formatDollars;

/**
 * One listing's floor under one rule, worked out when first asked for and then kept: a rule's line
 * plans one listing for many days, and its floor does not change with the day.
 */
export interface KeptFloor {
  floorCents?: bigint | null;
}

function floorFor(rule: RuleDefinition, listing: ListingFacts, kept: KeptFloor | undefined) {
  if (!kept) return floorOf(rule.floor, listing);
  if (kept.floorCents === undefined) kept.floorCents = floorOf(rule.floor, listing);
  return kept.floorCents;
}

function skipOf(
  listing: ListingFacts,
  reason: SkipReason,
  floorCents: bigint | null = null,
  why = SKIP_WORDS[reason],
): PlanItem {
  return { listingId: listing.id, title: listing.title, kind: 'skip', reason, floorCents, why };
}

/**
 * What a rule would do to one listing in its scope. `kept` holds the listing's floor under this
 * rule across calls for the same listing and rule (else it is worked out each time).
 */
export function planListing(
  rule: RuleDefinition,
  listing: ListingFacts,
  context: PlanContext,
  kept?: KeptFloor,
): PlanItem {
  const action = rule.action;
  if (listing.unavailableReason === 'sold') return skipOf(listing, 'sold');
  const edited = context.personEdits.get(listing.id);
  if (edited !== undefined && context.now - edited < rule.skipEditedWithinDays * DAY_MS) {
    return skipOf(listing, 'edited_by_person');
  }

  if (action.kind === 'relist') {
    if (listing.status === 'active') return skipOf(listing, 'unchanged');
    if (listing.unavailableReason !== 'expired' || !listing.canReactivate) {
      return skipOf(listing, 'not_relistable');
    }
    return {
      listingId: listing.id,
      title: listing.title,
      kind: 'write',
      before: { status: listing.status },
      after: { status: 'active', duration_hours: action.durationHours },
      floorCents: null,
      markdownCents: 0n,
      why: `its window ended unsold; relisted for ${action.durationHours / 24} days`,
    };
  }

  // Every other action changes prices: only on listings for sale, never on a deactivated one.
  if (listing.status !== 'active' || listing.unavailableReason !== null) {
    return skipOf(listing, 'inactive');
  }
  if (listing.isLot) return skipOf(listing, 'lot');
  const floor = floorFor(rule, listing, kept);
  if (floor === null) return skipOf(listing, 'no_cost');
  const age = ageDays(listing, context.now);

  if (action.kind === 'markdown') {
    if (age === null || age < action.afterDays) return skipOf(listing, 'too_young', floor);
    const last = context.lastChangedByRule.get(listing.id);
    if (last !== undefined && context.now - last < action.everyDays * DAY_MS) {
      return skipOf(listing, 'not_due', floor);
    }
    if (listing.priceCents <= floor) return skipOf(listing, 'at_floor', floor);
    const change =
      action.step.kind === 'percent'
        ? ({
            kind: 'percent',
            direction: 'lower',
            hundredths: hundredthsOf(action.step.percent),
          } as const)
        : ({
            kind: 'amount',
            direction: 'lower',
            cents: amountCents(action.step.amount),
          } as const);
    return (
      lowered(
        listing,
        change,
        action.ending,
        floor,
        `listed ${age} days`,
        context.explain !== false,
      ) ?? skipOf(listing, 'unchanged', floor, ROUNDS_UP)
    );
  }

  if (action.kind === 'offer_floor') {
    if (floor > listing.priceCents) return skipOf(listing, 'floor_above_price', floor);
    const share = minimumOfferFromPercent(listing.priceCents, hundredthsOf(action.percent));
    const raised = share.cents < floor;
    const offer = raised ? floor : share.cents;
    const turnOn =
      !listing.acceptsOffers &&
      action.turnOnAfterDays !== null &&
      age !== null &&
      age >= action.turnOnAfterDays;
    if (!listing.acceptsOffers && !turnOn)
      return skipOf(listing, action.turnOnAfterDays === null ? 'unchanged' : 'too_young', floor);
    if (listing.acceptsOffers && listing.minimumOfferCents === offer)
      return skipOf(listing, 'unchanged', floor);
    const before: WriteFields = {
      minimum_offer:
        listing.minimumOfferCents === null ? null : formatCents(listing.minimumOfferCents),
    };
    const after: WriteFields = { minimum_offer: formatCents(offer) };
    if (turnOn) {
      before.accepts_offers = false;
      after.accepts_offers = true;
    }
    return {
      listingId: listing.id,
      title: listing.title,
      kind: 'write',
      before,
      after,
      floorCents: floor,
      markdownCents: 0n,
      why: `${turnOn ? `listed ${age} days: offers on; ` : ''}${
        raised ? `${share.explanation}, raised to its floor ${money(floor)}` : share.explanation
      }`,
    };
  }

  // A sale event: lowered from its start, put back at its end unless the seller changed it.
  const starts = Date.parse(action.startsAt);
  const ends = Date.parse(action.endsAt);
  const held = context.onSale.get(listing.id);
  if (context.now >= ends) {
    if (!held) return skipOf(listing, 'unchanged', floor);
    if (listing.priceCents !== held.saleCents) return skipOf(listing, 'changed_since', floor);
    return {
      listingId: listing.id,
      title: listing.title,
      kind: 'write',
      before: { price: formatCents(listing.priceCents) },
      after: { price: formatCents(held.originalCents) },
      floorCents: floor,
      markdownCents: 0n,
      why: `the sale ended; back to ${money(held.originalCents)}`,
    };
  }
  if (context.now < starts) return skipOf(listing, 'sale_not_started', floor);
  if (held) return skipOf(listing, 'unchanged', floor);
  if (listing.priceCents <= floor) return skipOf(listing, 'at_floor', floor);
  const change = {
    kind: 'percent',
    direction: 'lower',
    hundredths: hundredthsOf(action.percent),
  } as const;
  return (
    lowered(listing, change, action.ending, floor, 'on sale', context.explain !== false) ??
    skipOf(listing, 'unchanged', floor, ROUNDS_UP)
  );
}

/**
 * A price lowered by `change` and its ending, stopped at the floor; undefined when the ending
 * would round it back up to the price or above (a markdown never raises a price).
 */
function lowered(
  listing: ListingFacts,
  change: PriceChange,
  ending: PriceEnding,
  floor: bigint,
  reason: string,
  explain: boolean,
): PlanItem | undefined {
  let cents: bigint | null;
  let explanation = '';
  if (explain) {
    const adjusted = withEnding(adjustPrice(listing.priceCents, change), ending);
    cents = adjusted.error === null ? adjusted.cents : null;
    explanation = adjusted.explanation;
  } else {
    cents = adjustedCents(listing.priceCents, change, ending);
  }
  const atFloor = cents === null || cents < floor;
  const next = cents === null || atFloor ? floor : cents;
  if (next >= listing.priceCents) return undefined;
  return {
    listingId: listing.id,
    title: listing.title,
    kind: 'write',
    before: { price: formatCents(listing.priceCents) },
    after: { price: formatCents(next) },
    floorCents: floor,
    markdownCents: listing.priceCents - next,
    why: !explain
      ? ''
      : atFloor
        ? `${reason}; stopped at its floor ${money(floor)}`
        : `${reason}; ${explanation}`,
  };
}

/**
 * The plan of a rule built listing by listing, in listing order, the run's caps applied as it goes
 * (what is over a cap is left for the next run, and says so). A caller with many listings may
 * give the event loop a turn between them.
 */
export class RulePlanner {
  readonly items: PlanItem[] = [];
  private writes = 0;
  private markdown = 0n;
  private readonly maxMarkdown: bigint;
  private readonly saleEnded: boolean;

  constructor(
    private readonly rule: RuleDefinition,
    private readonly context: PlanContext,
  ) {
    this.maxMarkdown = amountCents(rule.caps.maxMarkdown);
    this.saleEnded = rule.action.kind === 'sale' && context.now >= Date.parse(rule.action.endsAt);
  }

  /** Plans one listing (`kept`: its floor under this rule, kept across plans of it). */
  add(listing: ListingFacts, kept?: KeptFloor): void {
    const { rule, context } = this;
    // A sale's end puts back every listing it lowered, whatever the scope says now.
    const held = this.saleEnded && context.onSale.has(listing.id);
    if (!held && !inScope(rule.scope, listing, context.now)) return;
    const item = planListing(rule, listing, context, kept);
    if (item.kind === 'write') {
      if (
        this.writes >= rule.caps.maxListings ||
        this.markdown + item.markdownCents > this.maxMarkdown
      ) {
        this.items.push({
          listingId: item.listingId,
          title: item.title,
          kind: 'skip',
          reason: 'cap_reached',
          floorCents: item.floorCents,
          why: SKIP_WORDS.cap_reached,
        });
        return;
      }
      this.writes++;
      this.markdown += item.markdownCents;
    }
    this.items.push(item);
  }
}

/** The whole plan of a rule over the listings (`RulePlanner` at once). */
export function planRule(
  rule: RuleDefinition,
  listings: Iterable<ListingFacts>,
  context: PlanContext,
): PlanItem[] {
  const planner = new RulePlanner(rule, context);
  for (const listing of listings) planner.add(listing);
  return planner.items;
}
