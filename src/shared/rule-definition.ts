import * as z from 'zod/mini';
import { knownZone } from './delimited';
import { amountCheck } from './money';
import { ONE_LINE, ONE_LINE_WORDS } from './one-line';

/** A pricing rule as the owner writes it (the server checks, the browser types); money as decimal strings. */

const money = z
  .string()
  .check(
    z.trim(),
    z.superRefine(amountCheck({ max: 999_999_999, above: 'must be at most 9,999,999.99' })),
  );
/** A percentage with at most two decimals (12.5 is 12.5 %). */
const percent = (min: number, max: number) =>
  z.number().check(
    z.gte(min),
    z.lte(max),
    z.refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
      message: 'must have at most 2 decimals',
    }),
  );
const int = (min: number, max: number) => z.int().check(z.gte(min), z.lte(max));
const days = int(0, 3650);
const instant = z.iso.datetime({ offset: true });
const oneLine = z.regex(ONE_LINE, ONE_LINE_WORDS);
const shortText = (max: number) =>
  z.string().check(z.trim(), z.minLength(1), z.maxLength(max), oneLine);
const Ending = z._default(z.enum(['cent', '99', 'whole']), 'cent');
const amountOrPercent = (percentOf: z.ZodMiniNumber) =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('percent'), percent: percentOf }),
    z.object({ kind: z.literal('amount'), amount: money }),
  ]);

export const RuleScope = z.object({
  /** The saved view it came from, shown beside the rule; the filters below are what count. */
  viewName: z.optional(z.string().check(z.trim(), z.maxLength(80), oneLine)),
  status: z.optional(z.enum(['active', 'draft', 'archived'])),
  grader: z.optional(shortText(10)),
  grade: z.optional(shortText(20)),
  category: z.optional(shortText(40)),
  priceMin: z.optional(money),
  priceMax: z.optional(money),
  /** Listed at least this many days (by `listed_at`). */
  minAgeDays: z.optional(days),
  maxAgeDays: z.optional(days),
});

export const RuleAction = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('markdown'),
    /** Listed at least this many days before the first step. */
    afterDays: days,
    step: amountOrPercent(percent(0.01, 75)),
    /** Days between two steps on one listing. */
    everyDays: int(1, 365),
    ending: Ending,
  }),
  z.object({
    kind: z.literal('offer_floor'),
    /** `minimum_offer` as this share of the asking price. */
    percent: percent(1, 100),
    /** Offers are turned on for listings listed at least this many days; null leaves them off. */
    turnOnAfterDays: z._default(z.nullable(days), null),
  }),
  z.object({
    kind: z.literal('sale'),
    percent: percent(1, 75),
    startsAt: instant,
    endsAt: instant,
    ending: Ending,
  }),
  z.object({
    kind: z.literal('relist'),
    durationHours: z.union([z.literal(168), z.literal(336), z.literal(504), z.literal(720)]),
  }),
]);

export const RuleFloor = z.object({
  /** The platform's fee on a sale, in percent of the price. */
  platformFeePercent: percent(0, 50),
  /** The least margin over cost and fees: a share of the cost, or an amount. */
  margin: amountOrPercent(percent(0, 1000)),
  /** The floor is never below this amount, cost or not. */
  fixed: money,
  /** A listing without a known cost: left alone, or held to the fixed amount alone. */
  withoutCost: z._default(z.enum(['skip', 'fixed']), 'skip'),
});
export type RuleFloor = z.infer<typeof RuleFloor>;

export const RuleDefinition = z
  .object({
    name: shortText(80),
    scope: z._default(RuleScope, {}),
    action: RuleAction,
    floor: RuleFloor,
    caps: z._default(
      z.object({
        maxListings: z._default(int(1, 10_000), 500),
        /** The most markdown one run may take off, summed over its listings. */
        maxMarkdown: z._default(money, '1000000.00'),
      }),
      { maxListings: 500, maxMarkdown: '1000000.00' },
    ),
    /** A listing a person edited within this many days is left alone (their price wins). */
    skipEditedWithinDays: z._default(int(0, 365), 7),
    schedule: z._default(
      z.object({
        /** Runs by itself each day at this time; off: only "run now". */
        daily: z._default(z.boolean(), false),
        time: z._default(z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/)), '06:00'),
        timeZone: z._default(
          z.string().check(
            z.maxLength(64),
            z.refine((zone) => knownZone(zone) === zone, 'must be an IANA time zone'),
          ),
          'UTC',
        ),
      }),
      { daily: false, time: '06:00', timeZone: 'UTC' },
    ),
  })
  .check(
    z.refine(
      (rule) =>
        rule.action.kind !== 'sale' ||
        Date.parse(rule.action.startsAt) < Date.parse(rule.action.endsAt),
      { message: 'the sale must end after it starts', path: ['action', 'endsAt'] },
    ),
  );
export type RuleDefinition = z.infer<typeof RuleDefinition>;
export type RuleScope = RuleDefinition['scope'];
