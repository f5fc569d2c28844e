import type { ProxiedExchange } from '../api-proxy';
import { isRecord, parseBoundedJson } from './bounded-json';
import { LastKnownListings } from './last-known';
import {
  keptValue,
  viewFields,
  viewsOfAnswer,
  writeFields,
  type Scalar,
  type TrackedValues,
} from './listing-fields';
import type {
  ActivityAction,
  ActivityChanges,
  ActivityOutcome,
  ActivityStore,
  NewActivityEntry,
} from './activity-store';
import { serverLog } from '../log';
import { safeDecode } from '../../shared/safe-decode';

/**
 * A listing or product path of the API: the collection, or one record by id; without `.json` too,
 * as an upstream's own `Link` may name a page.
 */
const LISTING_PATH = /^\/\d{4}-\d{2}\/(?:listings|products)(?:\/([^/]+?))?(?:\.json)?$/;
/** Longest id or header value kept (ids are short; anything longer is not an id). */
const MAX_ID_CHARS = 120;
/** Answers larger than this teach nothing (a page of 250 listings is about 300 KB). */
const MAX_LEARNED_BYTES = 4 * 1024 * 1024;

function shortText(value: string | null | undefined): string | null {
  if (!value) return null;
  return value.length > MAX_ID_CHARS ? value.slice(0, MAX_ID_CHARS) : value;
}

function listingIdOfPath(path: string): { listing: boolean; id: string | null } {
  const match = LISTING_PATH.exec(path);
  if (!match) return { listing: false, id: null };
  return { listing: true, id: match[1] === undefined ? null : (safeDecode(match[1]) ?? match[1]) };
}

function actionOf(
  method: string,
  onListing: boolean,
  after: Record<string, Scalar>,
): ActivityAction {
  if (!onListing) return 'other';
  if (method === 'POST') return 'create';
  if (method === 'DELETE') return 'deactivate';
  if (method === 'PUT' && after.status === 'active') return 'reactivate';
  if (method === 'PUT' && after.status !== undefined) return 'status_change';
  return method === 'PUT' ? 'update' : 'other';
}

function outcomeOf(status: number): ActivityOutcome {
  if (status === 0 || status >= 500) return 'failed';
  return status >= 400 ? 'refused' : 'ok';
}

/**
 * Records every write the proxy forwards and learns each listing answered, so a later change knows
 * its before. It runs after the answer, guarded: a failure costs a log line, never an answer.
 */
export class ActivityRecorder {
  readonly lastKnown: LastKnownListings;

  constructor(
    private readonly store: ActivityStore,
    options: { lastKnownCapacity?: number; now?: () => Date } = {},
  ) {
    this.lastKnown = new LastKnownListings(options.lastKnownCapacity);
    this.now = options.now ?? (() => new Date());
  }

  private readonly now: () => Date;
  private stopped = false;

  /** After this, nothing more is recorded (the store is closing). */
  stop(): void {
    this.stopped = true;
  }

  /** The proxy's `onAnswered`: takes note now, does the work later. */
  readonly observe = (exchange: ProxiedExchange): void => {
    const at = this.now();
    setImmediate(() => {
      if (this.stopped) return;
      try {
        this.take(exchange, at);
      } catch (error) {
        serverLog.error({ err: error }, 'The activity log could not record a call');
      }
    });
  };

  /** Does the recording at once (the tests' and `observe`'s step). */
  take(exchange: ProxiedExchange, at: Date = this.now()): void {
    const write = exchange.method !== 'GET' && exchange.method !== 'HEAD';
    const { listing, id: pathId } = listingIdOfPath(exchange.path);
    const answer =
      listing && exchange.status >= 200 && exchange.status < 300
        ? parseBoundedJson(exchange.responseBody, { maxBytes: MAX_LEARNED_BYTES, maxDepth: 32 })
        : undefined;
    if (!write) {
      for (const view of viewsOfAnswer(answer)) this.lastKnown.learn(view.id, view.values);
      return;
    }
    const entry = this.entryOf(exchange, at, listing, pathId, answer);
    this.store.insert(entry);
    // What the write answered is now the listing as it is.
    for (const view of viewsOfAnswer(answer)) this.lastKnown.learn(view.id, view.values);
  }

  private entryOf(
    exchange: ProxiedExchange,
    at: Date,
    listing: boolean,
    pathId: string | null,
    answer: unknown,
  ): NewActivityEntry {
    const body = listing ? parseBoundedJson(exchange.requestBody) : undefined;
    const after =
      listing && body !== undefined
        ? writeFields(body, exchange.method === 'POST' ? 'create' : 'update')
        : {};
    const action = actionOf(exchange.method, listing, after);
    const answered = isRecord(answer) ? viewFields(answer.listing ?? answer.product) : undefined;
    const listingId = shortText(pathId ?? answered?.id ?? null);
    const known = listingId === null ? undefined : this.lastKnown.get(listingId);
    const changes = changesOf(action, after, known, answered?.values);
    const status = exchange.status;
    const outcome = outcomeOf(status);
    return {
      at: at.toISOString(),
      actor: exchange.actor ? { name: exchange.actor.name, role: exchange.actor.role } : null,
      action,
      method: exchange.method,
      path: exchange.path.slice(0, 300),
      listingId,
      bulkJobId: shortText(exchange.bulkJobId),
      changes,
      outcome,
      status,
      ...refusalOf(exchange),
      requestId: shortText(exchange.responseHeaders?.get('x-request-id')),
    };
  }
}

/** Each field the write set, with what it was before where known. */
function changesOf(
  action: ActivityAction,
  after: Record<string, Scalar>,
  known: TrackedValues | undefined,
  answered: TrackedValues | undefined,
): ActivityChanges {
  const changes: ActivityChanges = {};
  const before = (field: string): Scalar | undefined =>
    action === 'create' ? undefined : (known as Record<string, Scalar> | undefined)?.[field];
  for (const [field, value] of Object.entries(after)) {
    const was = before(field);
    changes[field] = was === undefined ? { after: value } : { before: was, after: value };
  }
  if (action === 'deactivate') {
    const was = before('status');
    const now = answered?.status;
    changes.status = {
      ...(was === undefined ? {} : { before: was }),
      ...(now === undefined ? {} : { after: keptValue(now) }),
    };
  }
  // A field the body did not set is left out: the log says what the person asked for.
  return changes;
}

/** A refused write's `svc_error.code`, and what the marketplace said (`errors`), if it did. */
function refusalOf(exchange: ProxiedExchange): { code: string | null; message: string | null } {
  if (exchange.status === 0) return { code: 'upstream_unreachable', message: null };
  if (exchange.status < 400) return { code: null, message: null };
  const body = parseBoundedJson(exchange.responseBody, { maxBytes: 64 * 1024, maxDepth: 8 });
  const error = isRecord(body) ? body.svc_error : undefined;
  const code = isRecord(error) && typeof error.code === 'string' ? shortText(error.code) : null;
  return { code, message: messageOf(isRecord(body) ? body.errors : undefined) };
}

/** `errors` as a line: a bare string, or each field's messages ("price must be at least 1.00"). */
function messageOf(errors: unknown): string | null {
  let text: string | undefined;
  if (typeof errors === 'string') text = errors;
  else if (isRecord(errors))
    text = Object.entries(errors)
      .flatMap(([field, messages]) =>
        (Array.isArray(messages) ? messages : [messages])
          .filter((message): message is string => typeof message === 'string')
          .map((message) => `${field.replace(/_/g, ' ')} ${message}`),
      )
      .join('; ');
  const line = text?.replace(/\s+/g, ' ').trim();
  return line ? line.slice(0, 300) : null;
}
