import * as z from 'zod/mini';
import type { SlabdeskClient } from '../../client';
import {
  PlanDiff,
  RunItem as SharedRunItem,
  RunRecord,
  StoredRule,
  Upcoming,
  WriteFields,
} from '../../shared/rule-answers';
import type { RuleDefinition } from '../../shared/rule-definition';
import { callServer } from '../server-call';
import { fields, type Thunks } from '../../shared/lazy-fields';

export type { RuleDefinition, WriteFields };
export type { PlanChange } from '../../shared/rule-answers';

/** Our server's pricing rules (`/hub/rules`): rules, preview, runs, run, undo; 404 if none. */

export const RULES_PATH = '/hub/rules';

export const RuleRun = z.extend(RunRecord, { markdown: z.string() });
export type RuleRun = z.infer<typeof RuleRun>;

export const Rule = z.extend(StoredRule, {
  lastRun: z.nullable(RuleRun),
  nextRunAt: z.nullable(z.string()),
});
export type Rule = z.infer<typeof Rule>;

const RulesList = z.object(
  fields({
    rules: () => z.array(Rule),
    /** Rules deleted lately: their runs stay readable. */
    deleted: () =>
      z.optional(
        z.array(z.object({ id: z.number(), name: z.string(), deletedAt: z.nullable(z.string()) })),
      ),
    role: () => z.enum(['owner', 'editor', 'viewer']),
    pause: () => z.nullable(z.string()),
  }),
);
export type RulesList = z.infer<typeof RulesList>;

/** What a plan or a run says of one listing. */
const ListingLine = {
  listingId: () => z.string(),
  title: () => z.string(),
  reason: () => z.nullable(z.string()),
  why: () => z.string(),
  before: () => WriteFields,
  after: () => WriteFields,
  floor: () => z.nullable(z.string()),
} satisfies Thunks;

export const PlanItem = z.object(fields({ ...ListingLine, kind: () => z.enum(['write', 'skip']) }));
export type PlanItem = z.infer<typeof PlanItem>;

const Preview = z.object(
  fields({
    read: () => z.number(),
    inScope: () => z.number(),
    changes: () => z.number(),
    /** The money the changes take off, in all. */
    markdown: () => z.string(),
    /** The plan's key: Run now sends it, so only this plan runs. */
    plan: () => z.string(),
    /** Listings left alone, by reason. */
    skipped: () => z.record(z.string(), z.number()),
    /** Listings in scope not listed (past the preview's bound). */
    left: () => z.number(),
    items: () => z.array(PlanItem),
  }),
);
export type Preview = z.infer<typeof Preview>;

const RunItem = z.extend(SharedRunItem, { floor: z.nullable(z.string()) });
export type RunItem = z.infer<typeof RunItem>;

const RunDetail = z.object({ run: RuleRun, sending: z.boolean(), items: z.array(RunItem) });
export type RunDetail = z.infer<typeof RunDetail>;

const ListingRules = z.object(
  fields({
    upcoming: () => z.array(Upcoming),
    touched: () =>
      z.nullable(
        z.object({ ruleId: z.number(), ruleName: z.nullable(z.string()), at: z.string() }),
      ),
  }),
);
export type ListingRules = z.infer<typeof ListingRules>;

const Touched = z.object(
  fields({
    listings: () =>
      z.array(
        z.object({ listingId: z.string(), ruleId: z.number(), ruleName: z.nullable(z.string()) }),
      ),
  }),
);
export type Touched = z.infer<typeof Touched>;

const PlanChangedBody = z.object(
  fields({
    svc_error: () =>
      z.object({
        plan: z.string(),
        changes: z.number(),
        markdown: z.string(),
        changed: PlanDiff,
      }),
  }),
);
export type NewPlan = z.infer<typeof PlanChangedBody>['svc_error'];

/** Run now refused: the listings changed since the preview; the new plan and what changed. */
export class PlanChangedError extends Error {
  constructor(readonly plan: NewPlan) {
    super('Your listings changed since the preview: nothing was sent.');
  }
}

/** Thrown when the server keeps no rules (it answered 404 at the list). */
export class RulesUnavailable extends Error {
  constructor() {
    super('This server runs no pricing rules.');
  }
}

function call<T>(
  client: SlabdeskClient,
  schema: z.ZodMiniType<T>,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: { body?: unknown; signal?: AbortSignal | undefined } = {},
): Promise<T> {
  return callServer(client, schema, `${RULES_PATH}${path}`, {
    ...options,
    method,
    // The list answering 404: this server runs no rules; a run refused: the plan changed.
    unavailable: (status, code, body) => {
      if (status === 404 && path === '') return new RulesUnavailable();
      const changed = code === 'plan_changed' ? PlanChangedBody.safeParse(body) : undefined;
      return changed?.success ? new PlanChangedError(changed.data.svc_error) : undefined;
    },
  });
}

const Created = z.object({ rule: Rule });
const Started = z.object({ run: RuleRun });
const Runs = z.object({ runs: z.array(RuleRun) });

export const rulesApi = {
  list: (client: SlabdeskClient, signal?: AbortSignal) =>
    call(client, RulesList, 'GET', '', { signal }),
  create: (client: SlabdeskClient, definition: RuleDefinition) =>
    call(client, Created, 'POST', '', { body: definition }),
  update: (
    client: SlabdeskClient,
    id: number,
    change: { definition?: RuleDefinition; enabled?: boolean },
  ) => call(client, Created, 'PUT', `/${id}`, { body: change }),
  preview: (
    client: SlabdeskClient,
    what: { ruleId: number } | { definition: RuleDefinition },
    signal?: AbortSignal,
  ) => call(client, Preview, 'POST', '/preview', { body: what, signal }),
  /** Runs the plan previewed (its key), refused with PlanChangedError when it is not the plan now. */
  run: (client: SlabdeskClient, id: number, plan: string) =>
    call(client, Started, 'POST', `/${id}/run`, { body: { plan } }),
  remove: (client: SlabdeskClient, id: number) => call(client, z.unknown(), 'DELETE', `/${id}`),
  runs: (client: SlabdeskClient, id: number, signal?: AbortSignal) =>
    call(client, Runs, 'GET', `/${id}/runs`, { signal }),
  runDetail: (client: SlabdeskClient, runId: number, signal?: AbortSignal) =>
    call(client, RunDetail, 'GET', `/runs/${runId}`, { signal }),
  undo: (client: SlabdeskClient, runId: number) =>
    call(client, Started, 'POST', `/runs/${runId}/undo`),
  listing: (client: SlabdeskClient, listingId: string, signal?: AbortSignal) =>
    call(client, ListingRules, 'GET', `/listing/${encodeURIComponent(listingId)}`, { signal }),
  touched: (client: SlabdeskClient, signal?: AbortSignal) =>
    call(client, Touched, 'GET', '/touched', { signal }),
};
