import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { isApiError } from '../../client';
import { formatCents } from '../../shared/money';
import { refuse } from '../error-envelope';
import type { Role } from '../auth/roles';
import type { KeyGovernor } from '../governor/key-governor';
import { serverLog } from '../log';
import { ReplicaNotReadyError } from '../replica/replica';
import { RuleDefinition } from '../../shared/rule-definition';
import type { PlanItem } from '../rules/rule-plan';
import type { RuleRunner } from '../rules/rule-runner';
import { localDayAndTime } from '../rules/rule-schedule';
import type { RulesStore, RunRecord, StoredRule } from '../rules/rules-store';
import { DEFAULT_BUDGET, SessionBudget } from '../session-budget';
import { clockText } from '../upstream-pause';

/** The rules' routes: owners write, run and undo, editors preview, viewers see. */
const PREFIX = '/hub/rules';

const Serial = z.coerce
  .number()
  .int()
  .min(1)
  .max(2 ** 31);
const Id = z.object({ id: Serial });
const RunId = z.object({ runId: Serial });
const RuleChange = z
  .object({ definition: z.optional(RuleDefinition), enabled: z.boolean().optional() })
  .refine((change) => change.definition !== undefined || change.enabled !== undefined, {
    message: 'change the definition, enabled, or both',
  });
/** `plan`: the key of the plan previewed; a different plan now is refused with the diff. */
const RunBody = z.object({ plan: z.string().max(64).optional() }).nullish();
const PreviewBody = z.union([
  z.object({ ruleId: z.number().int().min(1) }),
  z.object({ definition: RuleDefinition }),
]);

/** The most of each a view lists; the rest are counted. */
const SHOWN = { writes: 1_000, skips: 200, runItems: 10_000, touched: 50_000 };
const BODY_LIMIT = 64 * 1024;

/** An owner's route, and what a refused role could not do (see auth/roles.ts). */
const owner = (action: string) => ({ access: 'owner' as const, action });

function who(request: FastifyRequest): { name: string | null; role: Role } {
  const { actor, session } = request.admission;
  return session ?? actor ?? { name: null, role: 'owner' };
}

const itemView = ({ floorCents, markdownCents, ...item }: PlanItem) => ({
  ...item,
  floor: floorCents === null ? null : formatCents(floorCents),
  markdown: formatCents(markdownCents),
});

const runView = (run: RunRecord) => ({ ...run, markdown: formatCents(run.markdownCents) });

export const rulesRoutes: FastifyPluginAsyncZod<{
  store: RulesStore;
  runner: RuleRunner;
  governor: KeyGovernor | undefined;
}> = async (app, { store, runner, governor }) => {
  const ruleView = (rule: StoredRule) => {
    const [last] = store.runs(rule.id, 1);
    const next = runner.nextRun(rule);
    return {
      ...rule,
      lastRun: last ? runView(last) : null,
      nextRunAt: next === null ? null : new Date(next).toISOString(),
    };
  };

  /** The line every rules view shows while nothing can be written. */
  const pauseLine = (): string | null => {
    const paused = governor?.paused();
    if (paused) {
      return `Rules are paused: the marketplace asked us to wait until ${clockText(paused.until, Date.now())}. They carry on by themselves.`;
    }
    return store.unfinishedRuns().find((run) => run.status === 'paused')?.note ?? null;
  };

  // Routes whose work grows with the data spend the session's time budget, on the rules' clock.
  const budget = new SessionBudget(DEFAULT_BUDGET, runner.now);
  const budgeted = async (request: FastifyRequest, reply: FastifyReply) => {
    const wait = budget.retryAfterSeconds(SessionBudget.keyOf(request));
    if (wait === 0) return undefined;
    const words = `This session asked more of the server than it gives one person at a time; try again in ${wait} s.`;
    reply.header('retry-after', String(wait));
    return refuse(reply, 429, 'rate_limited', words, { retry_after_seconds: wait });
  };
  const spend = (request: FastifyRequest, ms: number) =>
    budget.charge(SessionBudget.keyOf(request), ms);

  const noSuchRule = (reply: FastifyReply) => refuse(reply, 404, 'not_found', 'No such rule.');
  const noSuchRun = (reply: FastifyReply) => refuse(reply, 404, 'not_found', 'No such run.');

  // A read of the listings that failed is a 503 that says so; the rest goes to the server's handler.
  app.setErrorHandler((error, _request, reply) => {
    if (!(error instanceof ReplicaNotReadyError) && !isApiError(error)) throw error;
    const words =
      'The listings could not be read from the marketplace just now; try again shortly.';
    const upstream = isApiError(error)
      ? { upstream_status: error.status, upstream_code: error.code }
      : {};
    return refuse(reply, 503, 'listings_unreadable', words, upstream);
  });

  app.get(PREFIX, { config: { access: 'viewer' } }, async (request) => ({
    rules: store.rules().map(ruleView),
    deleted: store.deletedRules().map(({ id, deletedAt, definition }) => ({
      id,
      deletedAt,
      name: definition.name,
    })),
    role: who(request).role,
    pause: pauseLine(),
  }));

  app.post(
    PREFIX,
    { bodyLimit: BODY_LIMIT, config: owner('create rules'), schema: { body: RuleDefinition } },
    async (request, reply) => {
      const rule = store.createRule(request.body, who(request).name, new Date().toISOString());
      runner.tick();
      return reply.code(201).send({ rule: ruleView(rule) });
    },
  );

  app.put(
    `${PREFIX}/:id`,
    {
      bodyLimit: BODY_LIMIT,
      config: owner('edit rules'),
      schema: { params: Id, body: RuleChange },
    },
    async (request, reply) => {
      const rule = store.updateRule(request.params.id, request.body, new Date().toISOString());
      if (!rule) return noSuchRule(reply);
      if (request.body.enabled === true) {
        // Switched on after today's time: its first scheduled run is tomorrow's, not at once.
        const { time, timeZone } = rule.definition.schedule;
        const local = localDayAndTime(runner.now(), timeZone);
        if (local.time >= time) store.claimScheduledDay(rule.id, local.day);
      }
      runner.tick();
      return { rule: ruleView(rule) };
    },
  );

  app.delete(
    `${PREFIX}/:id`,
    { config: owner('delete rules'), schema: { params: Id } },
    async (request, reply) => {
      if (!store.deleteRule(request.params.id, new Date().toISOString())) return noSuchRule(reply);
      runner.tick();
      return reply.code(204).send();
    },
  );

  app.post(
    `${PREFIX}/preview`,
    {
      bodyLimit: BODY_LIMIT,
      config: { access: 'editor', action: 'preview rules' },
      schema: { body: PreviewBody },
      preHandler: budgeted,
    },
    async (request, reply) => {
      const { body } = request;
      const rule = 'ruleId' in body ? store.rule(body.ruleId) : undefined;
      const definition = 'definition' in body ? body.definition : rule?.definition;
      if (!definition) return noSuchRule(reply);
      const preview = await runner.preview(definition, rule?.id);
      const viewAt = performance.now();
      // Thousands of rows help no one and cost the answer: writes listed to a bound, skips sampled.
      const writes = preview.items.filter((item) => item.kind === 'write');
      const skips = preview.items.filter((item) => item.kind === 'skip');
      const skipped: Record<string, number> = {};
      for (const { reason } of skips) if (reason) skipped[reason] = (skipped[reason] ?? 0) + 1;
      const shown = [...writes.slice(0, SHOWN.writes), ...skips.slice(0, SHOWN.skips)];
      const answer = {
        read: preview.read,
        inScope: preview.items.length,
        changes: preview.changes,
        markdown: formatCents(preview.markdownCents),
        plan: preview.plan,
        skipped,
        left: preview.items.length - shown.length,
        items: shown.map(itemView),
      };
      spend(request, preview.busyMs + performance.now() - viewAt);
      return answer;
    },
  );

  app.post(
    `${PREFIX}/:id/run`,
    { config: owner('run rules'), schema: { params: Id, body: RunBody } },
    async (request, reply) => {
      const rule = store.rule(request.params.id);
      if (!rule) return noSuchRule(reply);
      const run = await runner.startRun(rule, 'manual', who(request).name, request.body?.plan);
      if ('changed' in run) {
        const { changed, plan, changes, markdownCents } = run;
        const words = 'Your listings changed since the preview: nothing was sent.';
        const markdown = formatCents(markdownCents);
        return refuse(reply, 409, 'plan_changed', words, { changed, plan, changes, markdown });
      }
      return reply.code(202).send({ run: runView(run) });
    },
  );

  app.get(
    `${PREFIX}/:id/runs`,
    { config: { access: 'viewer' }, schema: { params: Id } },
    async (request, reply) => {
      const { id } = request.params;
      if (!store.rule(id, true)) return noSuchRule(reply);
      return { runs: store.runs(id).map(runView) };
    },
  );

  app.get(
    `${PREFIX}/runs/:runId`,
    { config: { access: 'viewer' }, schema: { params: RunId }, preHandler: budgeted },
    async (request, reply) => {
      const startedAt = performance.now();
      const run = store.run(request.params.runId);
      if (!run) return noSuchRun(reply);
      const items = store.items(run.id, SHOWN.runItems).map((item) => ({
        ...item,
        floor: item.floorCents === null ? null : formatCents(item.floorCents),
        markdown: formatCents(item.markdownCents),
      }));
      const { changed, skipped, failed, pending } = run.counts;
      spend(request, performance.now() - startedAt);
      return {
        run: runView(run),
        sending: runner.sending(run.id),
        items,
        itemsLeft: changed + skipped + failed + pending - items.length,
      };
    },
  );

  app.post(
    `${PREFIX}/runs/:runId/undo`,
    { config: owner('undo a rule’s run'), schema: { params: RunId } },
    async (request, reply) => {
      const run = store.run(request.params.runId);
      if (!run) return noSuchRun(reply);
      const refusal: [string, string] | false =
        run.trigger === 'undo'
          ? ['not_undoable', 'An undo is not undone.']
          : run.undoneBy !== null
            ? ['already_undone', 'This run was undone already.']
            : !run.finishedAt && ['run_unfinished', 'Wait for the run to finish, then undo it.'];
      if (refusal) return refuse(reply, 409, refusal[0], refusal[1]);
      const undo = await runner.undo(run, who(request).name);
      return reply.code(202).send({ run: runView(undo) });
    },
  );

  app.get(
    `${PREFIX}/listing/:listingId`,
    {
      config: { access: 'viewer' },
      schema: { params: z.object({ listingId: z.string().min(1).max(120) }) },
      preHandler: budgeted,
    },
    async (request) => {
      const startedAt = performance.now();
      const { listingId } = request.params;
      const touched = store.touchedListing(listingId);
      const ruleName = touched && (store.rule(touched.ruleId)?.definition.name ?? null);
      const readMs = performance.now() - startedAt;
      // The line is a help, not the page: without the listings read it is left out.
      const line = await runner.lines.upcoming(listingId).catch((error: unknown) => {
        serverLog.warn({ err: error }, 'The rules could not say what comes next for a listing');
        return { upcoming: [], busyMs: 0 };
      });
      spend(request, readMs + line.busyMs);
      return { upcoming: line.upcoming, touched: touched ? { ...touched, ruleName } : null };
    },
  );

  app.get(
    `${PREFIX}/touched`,
    { config: { access: 'viewer' }, preHandler: budgeted },
    async (request) => {
      const startedAt = performance.now();
      const names = new Map(store.rules().map((rule) => [rule.id, rule.definition.name]));
      const listings = store
        .touchedListings(SHOWN.touched)
        .map((t) => ({ ...t, ruleName: names.get(t.ruleId) ?? null }));
      spend(request, performance.now() - startedAt);
      return { listings };
    },
  );
};
