import * as z from 'zod/mini';
import type { SlabdeskClient } from '../../client';
import { callServer } from '../server-call';

/** Our server's activity log (`/hub/activity`, `.csv`); a 404 means show nothing. */

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const ActivityEntry = z.object({
  id: z.number(),
  at: z.string(),
  actor: z.nullable(z.object({ name: z.string(), role: z.string() })),
  action: z.string(),
  listingId: z.nullable(z.string()),
  bulkJobId: z.nullable(z.string()),
  changes: z.record(
    z.string(),
    z.object({ before: z.optional(Scalar), after: z.optional(Scalar) }),
  ),
  outcome: z.string(),
  status: z.number(),
  code: z.nullable(z.string()),
  requestId: z.nullable(z.string()),
  /** The marketplace's reason for a refused write, where the server keeps it. */
  message: z.optional(z.string()),
});
export type ActivityEntry = z.infer<typeof ActivityEntry>;

const ActivityPage = z.object({
  entries: z.array(ActivityEntry),
  people: z.optional(z.array(z.string())),
  nextBefore: z.optional(z.nullable(z.number())),
});
export type ActivityPage = z.infer<typeof ActivityPage>;

/** The filters of the log, as the page keeps them in its address. */
export interface ActivityFilters {
  person?: string | undefined;
  listing?: string | undefined;
  /** YYYY-MM-DD, a day in the browser's zone. */
  day?: string | undefined;
}

export const ACTIVITY_PATH = '/hub/activity';
export const ACTIVITY_CSV_PATH = '/hub/activity.csv';
/** The name the log shows for writes made with sign-in off. */
export const THIS_COMPUTER = 'This computer';

/** The browser's time zone, sent with a day so the server reads the day as the seller means it. */
export function browserZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** The query of a filtered read (and of the CSV link). */
export function activitySearch(filters: ActivityFilters, extra: Record<string, string> = {}) {
  const params = new URLSearchParams();
  if (filters.person) params.set('person', filters.person);
  if (filters.listing) params.set('listing', filters.listing);
  if (filters.day) {
    params.set('day', filters.day);
    const zone = browserZone();
    if (zone) params.set('tz', zone);
  }
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  return params;
}

/** Thrown when the server keeps no activity log (it answered 404): not an error to show. */
export class ActivityUnavailable extends Error {
  constructor() {
    super('This server keeps no activity log.');
  }
}

/** One page of the log, newest first; `before`: the page after that entry id. */
export async function fetchActivity(
  client: SlabdeskClient,
  filters: ActivityFilters,
  options: { before?: number | undefined; limit?: number; signal?: AbortSignal } = {},
): Promise<ActivityPage> {
  const extra: Record<string, string> = {};
  if (options.before !== undefined) extra.before = String(options.before);
  if (options.limit !== undefined) extra.limit = String(options.limit);
  const body = await callServer(client, z.unknown(), ACTIVITY_PATH, {
    search: activitySearch(filters, extra),
    signal: options.signal,
    unavailable: (status) => (status === 404 ? new ActivityUnavailable() : undefined),
  });
  // An answer this page cannot read is shown as no log, as a 404 is.
  const parsed = ActivityPage.safeParse(body);
  if (!parsed.success) throw new ActivityUnavailable();
  return parsed.data;
}
