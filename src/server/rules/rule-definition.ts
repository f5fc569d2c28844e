import * as z from 'zod';
import { amountCheck, exactCents } from '../../shared/money';
import { isTimeZone } from './rule-schedule';

/** A pricing rule as the owner writes it; money as the API's decimal strings, percentages numbers. */

const money = z
  .string()
  .trim()
  .superRefine(amountCheck({ max: 999_999_999, above: 'must be at most 9,999,999.99' }));
/** A percentage with at most two decimals (12.5 is 12.5 %). */
const percent = (min: number, max: number) =>
  z
    .number()
    .min(min)
    .max(max)
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
      message: 'must have at most 2 decimals',
    });
const days = z.number().int().min(0).max(3650);
const instant = z.iso.datetime({ offset: true });
const shortText = (max: number) => z.string().trim().min(1).max(max);

export const RuleScope = z.object({
  /** The saved view it came from, shown beside the rule; the filters below are what count. */
  viewName: z.string().trim().max(80).optional(),
  status: z.enum(['active', 'draft', 'archived']).optional(),
  grader: shortText(10).optional(),
  grade: shortText(20).optional(),
  category: shortText(40).optional(),
  priceMin: money.optional(),
  priceMax: money.optional(),
  /** Listed at least this many days (by `listed_at`). */
  minAgeDays: days.optional(),
  maxAgeDays: days.optional(),
});
export type RuleScope = z.infer<typeof RuleScope>;

const PriceStep = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('percent'), percent: percent(0.01, 75) }),
  z.object({ kind: z.literal('amount'), amount: money }),
]);
const Ending = z.enum(['cent', '99', 'whole']).default('cent');

export const RuleAction = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('markdown'),
    /** Listed at least this many days before the first step. */
    afterDays: days,
    step: PriceStep,
    /** Days between two steps on one listing. */
    everyDays: z.number().int().min(1).max(365),
    ending: Ending,
  }),
  z.object({
    kind: z.literal('offer_floor'),
    /** `minimum_offer` as this share of the asking price. */
    percent: percent(1, 100),
    /** Offers are turned on for listings listed at least this many days; null leaves them off. */
    turnOnAfterDays: days.nullable().default(null),
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
  margin: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('percent'), percent: percent(0, 1000) }),
    z.object({ kind: z.literal('amount'), amount: money }),
  ]),
  /** The floor is never below this amount, cost or not. */
  fixed: money,
  /** A listing without a known cost: left alone, or held to the fixed amount alone. */
  withoutCost: z.enum(['skip', 'fixed']).default('skip'),
});
export type RuleFloor = z.infer<typeof RuleFloor>;

export const RuleCaps = z.object({
  maxListings: z.number().int().min(1).max(10_000).default(500),
  /** The most markdown one run may take off, summed over its listings. */
  maxMarkdown: money.default('1000000.00'),
});

export const RuleSchedule = z.object({
  /** Runs by itself each day at this time; off: only "run now". */
  daily: z.boolean().default(false),
  time: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
    .default('06:00'),
  timeZone: z.string().max(64).refine(isTimeZone, 'must be an IANA time zone').default('UTC'),
});

export const RuleDefinition = z
  .object({
    name: shortText(80),
    scope: RuleScope.default({}),
    action: RuleAction,
    floor: RuleFloor,
    caps: RuleCaps.default({ maxListings: 500, maxMarkdown: '1000000.00' }),
    /** A listing a person edited within this many days is left alone (their price wins). */
    skipEditedWithinDays: z.number().int().min(0).max(365).default(7),
    schedule: RuleSchedule.default({ daily: false, time: '06:00', timeZone: 'UTC' }),
  })
  .refine(
    (rule) =>
      rule.action.kind !== 'sale' ||
      Date.parse(rule.action.startsAt) < Date.parse(rule.action.endsAt),
    { message: 'the sale must end after it starts', path: ['action', 'endsAt'] },
  );
export type RuleDefinition = z.infer<typeof RuleDefinition>;

/** A rule as kept: its definition, whether it runs by itself, and who made it. */
export interface StoredRule {
  id: number;
  enabled: boolean;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  /** When it was deleted (its runs kept); null while it stands. */
  deletedAt: string | null;
  definition: RuleDefinition;
}

/** Whole cents of an amount the schema accepted. */
export const amountCents = (value: string): bigint => exactCents(value) ?? 0n;

/** Hundredths of a percentage the schema accepted (12.5 → 1250). */
export const hundredthsOf = (value: number): bigint => BigInt(Math.round(value * 100));
