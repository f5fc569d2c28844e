import * as z from 'zod/mini';
import { fields } from './lazy-fields';
import type { RuleDefinition } from './rule-definition';

/** What the rules' routes answer of a plan, as the server builds it and the browser reads it. */

/** The fields a rule writes, money as decimal strings (the API's form). */
export const WriteFields = z.object(
  fields({
    price: () => z.optional(z.string()),
    minimum_offer: () => z.optional(z.nullable(z.string())),
    accepts_offers: () => z.optional(z.boolean()),
    status: () => z.optional(z.string()),
    duration_hours: () => z.optional(z.number()),
  }),
);
export type WriteFields = z.infer<typeof WriteFields>;

/** A daily rule's next change to a listing (its line). */
export const Upcoming = z.object(
  fields({
    ruleId: () => z.number(),
    ruleName: () => z.string(),
    at: () => z.string(),
    after: () => WriteFields,
    floor: () => z.nullable(z.string()),
  }),
);
export type Upcoming = z.infer<typeof Upcoming>;

/** The change as previewed, and as planned now (null: none). */
const Change = z.nullable(z.object({ before: WriteFields, after: WriteFields }));
export const PlanChange = z.object(
  fields({
    listingId: () => z.string(),
    title: () => z.string(),
    change: () => z.enum(['added', 'removed', 'changed']),
    shown: () => Change,
    now: () => Change,
  }),
);
export type PlanChange = z.infer<typeof PlanChange>;

/** What the plan now does differently from the plan previewed. */
export const PlanDiff = z.object(
  fields({
    /** False: the preview is no longer known here (a restart); only the new plan is told. */
    known: () => z.boolean(),
    added: () => z.number(),
    removed: () => z.number(),
    changed: () => z.number(),
    /** The first of them, listing by listing. */
    listings: () => z.array(PlanChange),
  }),
);
export type PlanDiff = z.infer<typeof PlanDiff>;

/** A rule's run as the store keeps it (the routes add its markdown in dollars). */
export const RunRecord = z.object(
  fields({
    id: () => z.number(),
    ruleId: () => z.number(),
    trigger: () => z.enum(['schedule', 'manual', 'undo']),
    status: () => z.enum(['running', 'paused', 'done', 'stopped']),
    /** Who asked for it; null for the schedule or sign-in off. */
    by: () => z.nullable(z.string()),
    startedAt: () => z.string(),
    finishedAt: () => z.nullable(z.string()),
    /** The seller's line while paused or after a stop. */
    note: () => z.nullable(z.string()),
    /** Epoch ms after which a paused run tries again. */
    resumeAt: () => z.nullable(z.number()),
    attempts: () => z.number(),
    undoOf: () => z.nullable(z.number()),
    undoneBy: () => z.nullable(z.number()),
    counts: () =>
      z.object({
        changed: z.number(),
        skipped: z.number(),
        failed: z.number(),
        pending: z.number(),
      }),
    markdownCents: () => z.number(),
  }),
);
export type RunRecord = z.infer<typeof RunRecord>;

/** One listing of a run as the store keeps it (the routes add its floor in dollars). */
export const RunItem = z.object(
  fields({
    runId: () => z.number(),
    listingId: () => z.string(),
    title: () => z.string(),
    state: () => z.enum(['pending', 'done', 'failed', 'skipped']),
    /** Why it was left alone or failed (a SkipReason or the API's code). */
    reason: () => z.nullable(z.string()),
    why: () => z.string(),
    before: () => WriteFields,
    after: () => WriteFields,
    floorCents: () => z.nullable(z.number()),
    markdownCents: () => z.number(),
    idempotencyKey: () => z.nullable(z.string()),
    /** The API's answer status once sent. */
    status: () => z.nullable(z.number()),
    at: () => z.nullable(z.string()),
  }),
);
export type RunItem = z.infer<typeof RunItem>;

/** A rule as kept: its definition, whether it runs by itself, and who made it. */
export const StoredRule = z.object(
  fields({
    id: () => z.number(),
    enabled: () => z.boolean(),
    createdBy: () => z.nullable(z.string()),
    createdAt: () => z.string(),
    updatedAt: () => z.string(),
    /** When it was deleted (its runs kept); null while it stands. */
    deletedAt: () => z.nullable(z.string()),
    // The store checked it with the whole schema as it read it; a reader takes it as kept.
    definition: () =>
      z.custom<RuleDefinition>((value) => typeof value === 'object' && value !== null),
  }),
);
export type StoredRule = z.infer<typeof StoredRule>;
