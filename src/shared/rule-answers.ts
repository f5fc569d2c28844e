import * as z from 'zod/mini';

/** What the rules' routes answer of a plan, as the server builds it and the browser reads it. */

/** The fields a rule writes, money as decimal strings (the API's form). */
export const WriteFields = z.object({
  price: z.optional(z.string()),
  minimum_offer: z.optional(z.nullable(z.string())),
  accepts_offers: z.optional(z.boolean()),
  status: z.optional(z.string()),
  duration_hours: z.optional(z.number()),
});
export type WriteFields = z.infer<typeof WriteFields>;

/** A daily rule's next change to a listing (its line). */
export const Upcoming = z.object({
  ruleId: z.number(),
  ruleName: z.string(),
  at: z.string(),
  after: WriteFields,
  floor: z.nullable(z.string()),
});
export type Upcoming = z.infer<typeof Upcoming>;

/** The change as previewed, and as planned now (null: none). */
const Change = z.nullable(z.object({ before: WriteFields, after: WriteFields }));
export const PlanChange = z.object({
  listingId: z.string(),
  title: z.string(),
  change: z.enum(['added', 'removed', 'changed']),
  shown: Change,
  now: Change,
});
export type PlanChange = z.infer<typeof PlanChange>;

/** What the plan now does differently from the plan previewed. */
export const PlanDiff = z.object({
  /** False: the preview is no longer known here (a restart); only the new plan is told. */
  known: z.boolean(),
  added: z.number(),
  removed: z.number(),
  changed: z.number(),
  /** The first of them, listing by listing. */
  listings: z.array(PlanChange),
});
export type PlanDiff = z.infer<typeof PlanDiff>;
