import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { formatCents } from '../../shared/money';
import type { Role } from '../auth/roles';
import type { KeyGovernor } from '../governor/key-governor';
import { serverLog } from '../log';
import { RuleDefinition, type StoredRule } from '../rules/rule-definition';
import type { PlanItem } from '../rules/rule-plan';
import { isApiError } from '../../client';
import { ReplicaNotReadyError } from '../replica/replica';
import { nextRunAt, type RuleRunner, type Upcoming } from '../rules/rule-runner';
import type { RulesStore, RunRecord } from '../rules/rules-store';
import { clockText } from '../upstream-pause';
import { refuse } from '../error-envelope';
import { localDayAndTime } from '../rules/rule-schedule';
import { SessionBudget } from '../session-budget';

/**
 * The rules' routes under `/hub/rules`, JSON in and out, every input read by zod. The gate runs
 * before (sign-in, CSRF, a viewer's writes refused); here owners create, edit, enable, run and
 * undo, editors preview too, viewers see. With sign-in off the one person is the owner.
 */
export const RULES_PREFIX = '/hub/rules';

export interface RulesRouteDeps {
  store: RulesStore;
  runner: RuleRunner;
  governor: KeyGovernor | undefined;
}

const Id = z.object({
  id: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31),
});
const RunId = z.object({
  runId: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31),
});
const ListingId = z.object({ listingId: z.string().min(1).max(120) });
const RuleChange = z
  .object({ definition: RuleDefinition.optional(), enabled: z.boolean().optional() })
  .refine((change) => change.definition !== undefined || change.enabled !== undefined, {
    message: 'change the definition, enabled, or both',
  });
const PreviewBody = z.union([
  z.object({ ruleId: z.number().int().min(1) }),
  z.object({ definition: RuleDefinition }),
]);

/** The most changes and left-alone listings a preview lists (the rest are counted). */
const PREVIEW_WRITES_SHOWN = 1_000;
const PREVIEW_SKIPS_SHOWN = 200;
/** The most items a run's detail lists (a run's counts say how many there are). */
const RUN_ITEMS_SHOWN = 10_000;
/** The most listings the catalogue's "touched by a rule" view lists. */
const TOUCHED_SHOWN = 50_000;

/** An owner's route, and what a refused role could not do (see auth/roles.ts). */
const owner = (action: string) => ({ access: 'owner' as const, action });

function who(request: FastifyRequest): { name: string | null; role: Role } {
  const { actor, session } = request.admission;
  if (session) return { name: session.name, role: session.role };
  if (actor) return { name: actor.name, role: actor.role };
  return { name: null, role: 'owner' };
}

export function itemView(item: PlanItem) {
  return {
    listingId: item.listingId,
    title: item.title,
    kind: item.kind,
    reason: item.kind === 'skip' ? item.reason : null,
    why: item.why,
    before: item.kind === 'write' ? item.before : {},
    after: item.kind === 'write' ? item.after : {},
    floor: item.floorCents === null ? null : formatCents(item.floorCents),
    markdown: item.kind === 'write' ? formatCents(item.markdownCents) : '0.00',
  };
}

function runView(run: RunRecord) {
  return { ...run, markdown: formatCents(BigInt(run.markdownCents)) };
}

export const rulesRoutes: FastifyPluginAsyncZod<RulesRouteDeps> = async (app, deps) => {
  const { store, runner } = deps;
  const bodyLimit = 64 * 1024;

  const ruleView = (rule: StoredRule) => {
    const [last] = store.runs(rule.id, 1);
    const schedule = rule.definition.schedule;
    return {
      ...rule,
      lastRun: last ? runView(last) : null,
      nextRunAt:
        rule.enabled && schedule.daily
          ? new Date(nextRunAt(rule, Date.now(), 0)).toISOString()
          : null,
    };
  };

  /** The line every rules view shows while nothing can be written. */
  const pauseLine = (): string | null => {
    const paused = deps.governor?.paused();
    if (paused) {
      return `Rules are paused: the marketplace asked us to wait until ${clockText(paused.until, Date.now())}. They carry on by themselves.`;
    }
    const waiting = store.unfinishedRuns().find((run) => run.status === 'paused');
    return waiting?.note ?? null;
  };

  // The routes whose work grows with the data spend the caller's budget of this server's time.
  const budget = new SessionBudget();
  // The `preHandler` of each route whose work grows with the data: over its budget, a session
  // is answered 429 before the handler runs.
  const budgeted = async (request: FastifyRequest, reply: FastifyReply) => {
    const wait = budget.retryAfterSeconds(SessionBudget.keyOf(request));
    if (wait === 0) return undefined;
    return refuse(
      reply.header('retry-after', String(wait)),
      429,
      'rate_limited',
      `This session asked more of the server than it gives one person at a time; try again in ${wait} s.`,
      { retry_after_seconds: wait },
    );
  };
  const spend = (request: FastifyRequest, ms: number) =>
    budget.charge(SessionBudget.keyOf(request), ms);

  const noSuchRule = (reply: FastifyReply) => refuse(reply, 404, 'not_found', 'No such rule.');

  const readFailed = (reply: FastifyReply, error: unknown) => {
    if (error instanceof ReplicaNotReadyError || isApiError(error)) {
      return refuse(
        reply,
        503,
        'listings_unreadable',
        'The listings could not be read from the marketplace just now; try again shortly.',
        isApiError(error) ? { upstream_status: error.status, upstream_code: error.code } : {},
      );
    }
    throw error;
  };

  app.get(RULES_PREFIX, { config: { access: 'viewer' } }, async (request, reply) => {
    const rules = store.rules().map(ruleView);
    return reply
      .header('cache-control', 'no-store')
      .send({ rules, role: who(request).role, pause: pauseLine() });
  });

  app.post(
    RULES_PREFIX,
    { bodyLimit, config: owner('create rules'), schema: { body: RuleDefinition } },
    async (request, reply) => {
      const rule = store.createRule(request.body, who(request).name, new Date().toISOString());
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({ rule: ruleView(rule) });
    },
  );

  app.put(
    `${RULES_PREFIX}/:id`,
    { bodyLimit, config: owner('edit rules'), schema: { params: Id, body: RuleChange } },
    async (request, reply) => {
      const change = request.body;
      const rule = store.updateRule(request.params.id, change, new Date().toISOString());
      if (!rule) return noSuchRule(reply);
      if (change.enabled === true) {
        // Switched on after today's time: its first scheduled run is tomorrow's, not at once.
        const { time, timeZone } = rule.definition.schedule;
        const local = localDayAndTime(Date.now(), timeZone);
        if (local.time >= time) store.claimScheduledDay(rule.id, local.day);
      }
      return reply.header('cache-control', 'no-store').send({ rule: ruleView(rule) });
    },
  );

  app.delete(
    `${RULES_PREFIX}/:id`,
    { config: owner('delete rules'), schema: { params: Id } },
    async (request, reply) => {
      if (!store.deleteRule(request.params.id)) return noSuchRule(reply);
      return reply.code(204).send();
    },
  );

  app.post(
    `${RULES_PREFIX}/preview`,
    {
      bodyLimit,
      config: { access: 'editor', action: 'preview rules' },
      schema: { body: PreviewBody },
      preHandler: budgeted,
    },
    async (request, reply) => {
      const body = request.body;
      let definition = 'definition' in body ? body.definition : undefined;
      let ruleId: number | undefined;
      if ('ruleId' in body) {
        const rule = store.rule(body.ruleId);
        if (!rule) return noSuchRule(reply);
        definition = rule.definition;
        ruleId = rule.id;
      }
      try {
        const preview = await runner.preview(definition!, ruleId);
        const viewAt = performance.now();
        // Every change is listed (up to a bound), the listings left alone counted by reason with a
        // sample: a page of thousands of rows helps no one, and sending it costs the answer.
        const writes = preview.items.filter((item) => item.kind === 'write');
        const skips = preview.items.filter((item) => item.kind === 'skip');
        const skipped: Record<string, number> = {};
        for (const item of skips) skipped[item.reason] = (skipped[item.reason] ?? 0) + 1;
        const shown = [
          ...writes.slice(0, PREVIEW_WRITES_SHOWN),
          ...skips.slice(0, PREVIEW_SKIPS_SHOWN),
        ];
        const answer = {
          read: preview.read,
          inScope: preview.items.length,
          changes: writes.length,
          skipped,
          left: preview.items.length - shown.length,
          items: shown.map(itemView),
        };
        spend(request, preview.busyMs + performance.now() - viewAt);
        return reply.header('cache-control', 'no-store').send(answer);
      } catch (error) {
        return readFailed(reply, error);
      }
    },
  );

  app.post(
    `${RULES_PREFIX}/:id/run`,
    { config: owner('run rules'), schema: { params: Id } },
    async (request, reply) => {
      const rule = store.rule(request.params.id);
      if (!rule) return noSuchRule(reply);
      try {
        const run = await runner.startRun(rule, 'manual', who(request).name);
        return reply
          .code(202)
          .header('cache-control', 'no-store')
          .send({ run: runView(run) });
      } catch (error) {
        return readFailed(reply, error);
      }
    },
  );

  app.get(
    `${RULES_PREFIX}/:id/runs`,
    { config: { access: 'viewer' }, schema: { params: Id } },
    async (request, reply) => {
      const { id } = request.params;
      if (!store.rule(id)) return noSuchRule(reply);
      return reply.header('cache-control', 'no-store').send({ runs: store.runs(id).map(runView) });
    },
  );

  app.get(
    `${RULES_PREFIX}/runs/:runId`,
    { config: { access: 'viewer' }, schema: { params: RunId }, preHandler: budgeted },
    async (request, reply) => {
      const startedAt = performance.now();
      const run = store.run(request.params.runId);
      if (!run) return refuse(reply, 404, 'not_found', 'No such run.');
      const items = store.items(run.id, RUN_ITEMS_SHOWN).map((item) => ({
        ...item,
        floor: item.floorCents === null ? null : formatCents(BigInt(item.floorCents)),
        markdown: formatCents(BigInt(item.markdownCents)),
      }));
      const counts = run.counts;
      const total = counts.changed + counts.skipped + counts.failed + counts.pending;
      spend(request, performance.now() - startedAt);
      return reply.header('cache-control', 'no-store').send({
        run: runView(run),
        sending: runner.sending(run.id),
        items,
        itemsLeft: total - items.length,
      });
    },
  );

  app.post(
    `${RULES_PREFIX}/runs/:runId/undo`,
    { config: owner('undo a rule’s run'), schema: { params: RunId } },
    async (request, reply) => {
      const run = store.run(request.params.runId);
      if (!run) return refuse(reply, 404, 'not_found', 'No such run.');
      if (run.trigger === 'undo')
        return refuse(reply, 409, 'not_undoable', 'An undo is not undone.');
      if (run.undoneBy !== null) {
        return refuse(reply, 409, 'already_undone', 'This run was undone already.');
      }
      if (run.status === 'running' || run.status === 'paused') {
        return refuse(reply, 409, 'run_unfinished', 'Wait for the run to finish, then undo it.');
      }
      try {
        const undo = await runner.undo(run, who(request).name);
        return reply
          .code(202)
          .header('cache-control', 'no-store')
          .send({ run: runView(undo) });
      } catch (error) {
        return readFailed(reply, error);
      }
    },
  );

  app.get(
    `${RULES_PREFIX}/listing/:listingId`,
    { config: { access: 'viewer' }, schema: { params: ListingId }, preHandler: budgeted },
    async (request, reply) => {
      const startedAt = performance.now();
      const { listingId } = request.params;
      const touched = store.touchedListing(listingId);
      let busyMs = performance.now() - startedAt;
      let upcoming: Upcoming[] = [];
      try {
        // Kept until something it read changes; planned in turns when it must be planned again.
        const line = await runner.upcoming(listingId);
        upcoming = line.upcoming;
        busyMs += line.busyMs;
      } catch (error) {
        // The line is a help, not the page: without the listings read it is left out.
        serverLog.warn({ err: error }, 'The rules could not say what comes next for a listing');
      }
      spend(request, busyMs);
      return reply.header('cache-control', 'no-store').send({
        upcoming,
        touched: touched
          ? { ...touched, ruleName: store.rule(touched.ruleId)?.definition.name ?? null }
          : null,
      });
    },
  );

  app.get(
    `${RULES_PREFIX}/touched`,
    { config: { access: 'viewer' }, preHandler: budgeted },
    async (request, reply) => {
      const startedAt = performance.now();
      const names = new Map(store.rules().map((rule) => [rule.id, rule.definition.name]));
      const listings = store
        .touchedListings(TOUCHED_SHOWN)
        .map((t) => ({ ...t, ruleName: names.get(t.ruleId) ?? null }));
      spend(request, performance.now() - startedAt);
      return reply.header('cache-control', 'no-store').send({ listings });
    },
  );
};
