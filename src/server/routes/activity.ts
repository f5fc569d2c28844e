import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { csvTime, knownZone, toCsv } from '../../shared/delimited';
import { THIS_COMPUTER } from '../auth/roles';
import { refuse } from '../error-envelope';
import type { ActivityEntry, ActivityFilter, ActivityStore } from '../activity/activity-store';

/** A calendar day (`YYYY-MM-DD`) in IANA zone `tz` (UTC when none) as instants; null when invalid. */
export function dayRange(day: string, tz: string | undefined): { from: number; to: number } | null {
  const [midnightUtc, zone] = [Date.parse(`${day}T00:00:00Z`), knownZone(tz)];
  // A calendar day reads back as written (`2026-02-30` does not); an unknown zone is no zone.
  const real =
    /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(midnightUtc) && (!tz || zone === tz);
  if (!real || new Date(midnightUtc).toISOString().slice(0, 10) !== day) return null;
  const format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
  // How far ahead of UTC the zone's clock is at an instant (`GMT-05:00`, `GMT-04:56:02`; `GMT`).
  const offset = (instant: number) => {
    const name = format.formatToParts(instant).find((part) => part.type === 'timeZoneName');
    const [, sign, ...hms] = /([+-])(\d\d):(\d\d)(?::(\d\d))?$/.exec(name?.value ?? '') ?? [];
    const seconds = hms.reduce((total, part) => total * 60 + Number(part ?? 0), 0);
    return (sign === '-' ? -1000 : 1000) * seconds;
  };
  // The offset at the guess, then again at the result: right across a change of offset.
  const localMidnight = (wallUtc: number) => wallUtc - offset(wallUtc - offset(wallUtc));
  return { from: localMidnight(midnightUtc), to: localMidnight(midnightUtc + 86_400_000) };
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/** The log as a spreadsheet reads it: one row per changed field, formulas neutralised. */
function activityCsv(entries: readonly ActivityEntry[], zone: string): string {
  const rows: string[][] = [
    'time,person,action,listing,field,before,after,outcome,request id,bulk job'.split(','),
  ];
  for (const entry of entries) {
    const row = (field: string, before: unknown, after: unknown) => [
      csvTime(entry.at, zone),
      entry.actor?.name ?? THIS_COMPUTER,
      entry.action,
      text(entry.listingId),
      field,
      text(before),
      text(after),
      entry.outcome === 'ok'
        ? 'ok'
        : `${entry.outcome} ${entry.status}${entry.code ? ` ${entry.code}` : ''}`,
      text(entry.requestId),
      text(entry.bulkJobId),
    ];
    const fields = Object.entries(entry.changes);
    if (fields.length === 0) rows.push(row('', '', ''));
    for (const [field, change] of fields) rows.push(row(field, change.before, change.after));
  }
  return toCsv(rows);
}

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
    .transform(({ person, listing, day, tz, before, limit }, context) => {
      const range = day ? dayRange(day, tz || undefined) : undefined;
      if (range === null) {
        const message = 'must be YYYY-MM-DD, and tz an IANA time zone';
        context.addIssue({ code: 'custom', path: ['day'], message });
        return z.NEVER;
      }
      const who = person ? (person === THIS_COMPUTER ? null : person) : undefined;
      const filter: ActivityFilter = { person: who, listing: listing || undefined, before, limit };
      return { filter: { ...filter, ...range }, day, tz };
    });
}

const READ = { access: 'viewer' } as const;

/** The log as JSON pages (newest first) and CSV, to any viewer; 404 `activity_off` without one. */
export const activityRoutes: FastifyPluginAsyncZod<{ store: ActivityStore | undefined }> = async (
  app,
  { store },
) => {
  app.addHook('onRequest', async (_request, reply) => {
    if (!store) return refuse(reply, 404, 'activity_off', 'This server keeps no activity log.');
  });

  app.get(
    '/hub/activity',
    { config: READ, schema: { querystring: filterQuery({ default: 50, max: 200 }) } },
    async (request) => {
      const { filter } = request.query;
      const entries = store!.list(filter);
      const last = entries.at(-1);
      const nextBefore = entries.length === filter.limit && last ? last.id : null;
      return { entries, people: store!.people(), nextBefore };
    },
  );

  app.get(
    '/hub/activity.csv',
    { config: READ, schema: { querystring: filterQuery({ default: 10_000, max: 10_000 }) } },
    async (request, reply) => {
      const { filter, day, tz } = request.query;
      const named = filter.from === undefined ? 'all' : (day ?? 'all');
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="slabdesk-activity-${named}.csv"`)
        .send(activityCsv(store!.list(filter), knownZone(tz)));
    },
  );
};
