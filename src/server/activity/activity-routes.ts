import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../api-proxy';
import { activityCsv } from './activity-csv';
import type { ActivityFilter, ActivityStore } from './activity-store';
import { dayRange } from './day-range';
import { requestUrl } from '../request-url';

/**
 * `GET /hub/activity` (JSON pages, newest first) and `/hub/activity.csv`, filtered by `person`,
 * `listing`, `day` (in zone `tz`, else UTC), `before` and `limit`; the gate runs before.
 */
export const ACTIVITY_PATHS = { json: '/hub/activity', csv: '/hub/activity.csv' } as const;

/** The name the log shows for writes made with sign-in off. */
export const THIS_COMPUTER = 'This computer';

const LIMITS = { json: { default: 50, max: 200 }, csv: { default: 10_000, max: 10_000 } };

function filterOf(
  params: URLSearchParams,
  kind: 'json' | 'csv',
): ActivityFilter | { error: string } {
  const filter: ActivityFilter = { limit: LIMITS[kind].default };
  const person = params.get('person')?.trim();
  if (person) {
    if (person.length > 100) return { error: 'person is at most 100 characters' };
    filter.person = person === THIS_COMPUTER ? null : person;
  }
  const listing = params.get('listing')?.trim();
  if (listing) {
    if (listing.length > 120) return { error: 'listing is at most 120 characters' };
    filter.listingId = listing;
  }
  const day = params.get('day')?.trim();
  if (day) {
    const range = dayRange(day, params.get('tz')?.trim() || undefined);
    if (!range) return { error: 'day must be YYYY-MM-DD and tz an IANA time zone' };
    filter.from = range.from;
    filter.to = range.to;
  }
  const before = params.get('before');
  if (before) {
    if (!/^\d{1,15}$/.test(before)) return { error: 'before must be an entry id' };
    filter.before = Number(before);
  }
  const limit = params.get('limit');
  if (limit) {
    const n = Number(limit);
    if (!Number.isInteger(n) || n < 1 || n > LIMITS[kind].max) {
      return { error: `limit must be 1 to ${LIMITS[kind].max}` };
    }
    filter.limit = n;
  }
  return filter;
}

/** Answers an activity path (true), or leaves the request to the next handler (false). */
export function serveActivity(
  request: IncomingMessage,
  response: ServerResponse,
  pathname: string,
  store: ActivityStore | undefined,
): boolean {
  const kind =
    pathname === ACTIVITY_PATHS.json ? 'json' : pathname === ACTIVITY_PATHS.csv ? 'csv' : null;
  if (kind === null) return false;
  if (!store) {
    sendJson(response, 404, 'activity_off', 'This server keeps no activity log.');
    return true;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('allow', 'GET, HEAD');
    sendJson(response, 405, 'method_not_allowed', 'The activity log is read with GET.');
    return true;
  }
  const params = requestUrl(request.url).searchParams;
  const filter = filterOf(params, kind);
  if ('error' in filter) {
    sendJson(response, 400, 'bad_filter', filter.error);
    return true;
  }
  const entries = store.list(filter);
  const head = request.method === 'HEAD';
  if (kind === 'csv') {
    const day = filter.from === undefined ? 'all' : (params.get('day') ?? 'all');
    response.writeHead(200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="slabdesk-activity-${day}.csv"`,
      'cache-control': 'no-store',
    });
    response.end(head ? undefined : activityCsv(entries));
    return true;
  }
  const last = entries.at(-1);
  const body = JSON.stringify({
    entries,
    people: store.people(),
    nextBefore: entries.length === filter.limit && last ? last.id : null,
  });
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(head ? undefined : body);
  return true;
}
