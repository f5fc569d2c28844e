import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { refuse } from '../error-envelope';
import { activityCsv } from '../activity/activity-csv';
import type { ActivityFilter, ActivityStore } from '../activity/activity-store';
import { dayRange } from '../activity/day-range';

/**
 * `GET /hub/activity` (JSON pages, newest first) and `/hub/activity.csv`, filtered by `person`,
 * `listing`, `day` (in zone `tz`, else UTC), `before` and `limit`; the gate runs before.
 */
export const ACTIVITY_PATHS = { json: '/hub/activity', csv: '/hub/activity.csv' } as const;

/** The name the log shows for writes made with sign-in off. */
export const THIS_COMPUTER = 'This computer';

/** A filter's query, read into the store's filter (a day in its zone as a range of instants). */
function filterQuery(limits: { default: number; max: number }) {
  return z
    .object({
      person: z.string().trim().max(100).optional(),
      listing: z.string().trim().max(120).optional(),
      day: z.string().trim().optional(),
      tz: z.string().trim().optional(),
      before: z
        .string()
        .regex(/^\d{1,15}$/, 'must be an entry id')
        .transform(Number)
        .optional(),
      limit: z.coerce.number().int().min(1).max(limits.max).default(limits.default),
    })
    .transform((query, context) => {
      const filter: ActivityFilter = { limit: query.limit };
      if (query.person) filter.person = query.person === THIS_COMPUTER ? null : query.person;
      if (query.listing) filter.listingId = query.listing;
      if (query.before !== undefined) filter.before = query.before;
      if (query.day) {
        const range = dayRange(query.day, query.tz || undefined);
        if (!range) {
          context.addIssue({
            code: 'custom',
            path: ['day'],
            message: 'must be YYYY-MM-DD, and tz an IANA time zone',
          });
          return z.NEVER;
        }
        filter.from = range.from;
        filter.to = range.to;
      }
      return { filter, day: query.day };
    });
}

export interface ActivityRouteDeps {
  store: ActivityStore | undefined;
}

const READ = { access: 'viewer' } as const;
const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

/** The activity log, read by anyone signed in; 404 `activity_off` on a server that keeps none. */
export const activityRoutes: FastifyPluginAsyncZod<ActivityRouteDeps> = async (app, deps) => {
  app.addHook('onRequest', async (_request, reply) => {
    if (!deps.store) {
      return refuse(reply, 404, 'activity_off', 'This server keeps no activity log.');
    }
    return undefined;
  });
  const store = (): ActivityStore => deps.store!;

  app.get(
    ACTIVITY_PATHS.json,
    { config: READ, schema: { querystring: filterQuery({ default: 50, max: 200 }) } },
    async (request, reply) => {
      const { filter } = request.query;
      const entries = store().list(filter);
      const last = entries.at(-1);
      return noStore(reply).send({
        entries,
        people: store().people(),
        nextBefore: entries.length === filter.limit && last ? last.id : null,
      });
    },
  );

  app.get(
    ACTIVITY_PATHS.csv,
    { config: READ, schema: { querystring: filterQuery({ default: 10_000, max: 10_000 }) } },
    async (request, reply) => {
      const { filter, day } = request.query;
      const named = filter.from === undefined ? 'all' : (day ?? 'all');
      return noStore(reply)
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="slabdesk-activity-${named}.csv"`)
        .send(activityCsv(store().list(filter)));
    },
  );
};
