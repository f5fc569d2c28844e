import type { ProxiedExchange } from '../api-proxy';
import { isRecord } from '../../shared/is-record';
import { jsonOfBytes } from '../bounded-json';
import { guarded } from '../hub/background-error';
import { safeDecode } from '../../shared/safe-decode';
import { flattenWriteBody } from '../../shared/write-body';
import { isWrite } from '../auth/roles';
import {
  ActivityStore,
  type ActivityAction,
  type ActivityChanges,
  type Scalar,
} from './activity-store';

const TRACKED_FIELDS = ['title', 'price', 'status', 'accepts_offers', 'minimum_offer'] as const;
type TrackedValues = Partial<Record<(typeof TRACKED_FIELDS)[number], Scalar>>;

// A listing or product path, the collection or one by id; without `.json` too (an upstream `Link`).
const LISTING_PATH = /^\/\d{4}-\d{2}\/(?:listings|products)(?:\/([^/]+?))?(?:\.json)?$/;
// Ids are short: anything longer is not one.
const MAX_ID_CHARS = 120;
// A description may be 10,000 characters; a change keeps this much.
const MAX_VALUE_CHARS = 300;

const shortText = (value: string | null | undefined) =>
  value ? value.slice(0, MAX_ID_CHARS) : null;

/** A value as the log keeps it: scalars as they are (long text cut), anything else as JSON. */
function keptValue(value: unknown): Scalar {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
}

const scalarOf = (value: unknown): Scalar | undefined =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value)
    ? (value as Scalar)
    : undefined;

/** The tracked fields of one listing view or product (or its first variant), by its id. */
function viewFields(view: unknown): { id: string; values: TrackedValues } | undefined {
  if (!isRecord(view) || !['string', 'number'].includes(typeof view.id) || view.id === '') {
    return undefined;
  }
  const variant: unknown = Array.isArray(view.variants) ? view.variants[0] : undefined;
  const fromVariant = isRecord(variant) ? variant : {};
  const values: TrackedValues = {};
  for (const field of TRACKED_FIELDS) {
    const value = [view, fromVariant]
      .flatMap((source) => [source[field], source[`svc_${field}`]])
      .map(scalarOf)
      .find((one) => one !== undefined);
    if (value !== undefined) values[field] = value;
  }
  return { id: String(view.id), values };
}

/** Every listing view an answer carries: one (`listing`, `product`) or a page of them. */
export function viewsOfAnswer(body: unknown): { id: string; values: TrackedValues }[] {
  if (!isRecord(body)) return [];
  const one = body.listing ?? body.product;
  const many = body.listings ?? body.products;
  const views = Array.isArray(many) ? (many as unknown[]) : one === undefined ? [] : [one];
  return views.flatMap((view) => viewFields(view) ?? []);
}

/** The fields a listing write sets, in the write API's names, whatever form it came in. */
export function writeFields(body: unknown, kind: 'create' | 'update'): Record<string, Scalar> {
  // Refused fields are the upstream's to report; the log keeps what was accepted.
  const flat = flattenWriteBody(body, kind, { add: () => {} });
  return Object.fromEntries(Object.entries(flat).map(([name, v]) => [name, keptValue(v)]));
}

/** The last known tracked fields of each listing seen, bounded (the least recently seen out). */
export class LastKnownListings extends Map<string, TrackedValues> {
  constructor(private readonly capacity = 100_000) {
    super();
  }

  learn(id: string, values: TrackedValues): void {
    const known = this.get(id);
    this.delete(id);
    this.set(id, { ...known, ...values });
    if (this.size > this.capacity) this.delete(this.keys().next().value!);
  }
}

function actionOf(method: string, onListing: boolean, after: Record<string, Scalar>) {
  if (!onListing) return 'other';
  if (method === 'POST') return 'create';
  if (method === 'DELETE') return 'deactivate';
  if (method === 'PUT' && after.status === 'active') return 'reactivate';
  if (method === 'PUT' && after.status !== undefined) return 'status_change';
  return method === 'PUT' ? 'update' : 'other';
}

/**
 * Records every write the proxy forwards and learns each listing answered, so a later change knows
 * its before. It runs after the answer, guarded: a failure costs a log line, never an answer.
 */
export class ActivityRecorder {
  readonly lastKnown = new LastKnownListings();
  /** Set when the store is closing: nothing more is recorded. */
  private stopped = false;

  constructor(readonly store: ActivityStore) {}

  /** The proxy's `onAnswered`: takes note now, does the work later. */
  readonly observe = (exchange: ProxiedExchange): void => {
    const at = new Date();
    setImmediate(() => {
      if (!this.stopped)
        guarded('recording a call in the activity log', () => this.take(exchange, at));
    });
  };

  take(exchange: ProxiedExchange, at = new Date()): void {
    const { method, path, status } = exchange;
    const match = LISTING_PATH.exec(path);
    // A page of 250 listings is about 300 KB: larger answers teach nothing.
    const ok = match && status >= 200 && status < 300;
    const answer = ok ? jsonOfBytes(exchange.responseBody) : undefined;
    if (isWrite(method)) {
      const body = match ? jsonOfBytes(exchange.requestBody) : undefined;
      const after =
        body !== undefined ? writeFields(body, method === 'POST' ? 'create' : 'update') : {};
      const action = actionOf(method, match !== null, after);
      const answered = isRecord(answer) ? viewFields(answer.listing ?? answer.product) : undefined;
      const pathId = match?.[1] === undefined ? undefined : (safeDecode(match[1]) ?? match[1]);
      const listingId = shortText(pathId ?? answered?.id);
      const known = listingId === null ? undefined : this.lastKnown.get(listingId);
      this.store.insert({
        at: at.toISOString(),
        actor: exchange.actor ? { name: exchange.actor.name, role: exchange.actor.role } : null,
        action,
        method,
        path: path.slice(0, 300),
        listingId,
        bulkJobId: shortText(exchange.bulkJobId),
        changes: changesOf(action, after, known, answered?.values),
        outcome: status === 0 || status >= 500 ? 'failed' : status >= 400 ? 'refused' : 'ok',
        status,
        ...refusalOf(exchange),
        requestId: shortText(exchange.responseHeaders?.get('x-request-id')),
      });
    }
    // What a write answered is now the listing as it is.
    for (const view of viewsOfAnswer(answer)) this.lastKnown.learn(view.id, view.values);
  }

  close(): void {
    this.stopped = true;
    this.store.close();
  }
}

/** Each field the write set (the log says what the person asked for), with its before if known. */
function changesOf(
  action: ActivityAction,
  after: Record<string, Scalar>,
  known: TrackedValues | undefined,
  answered: TrackedValues | undefined,
): ActivityChanges {
  // An unknown side stays undefined: the stored JSON leaves it out.
  const before = (field: string): Scalar | undefined =>
    action === 'create' ? undefined : (known as Record<string, Scalar> | undefined)?.[field];
  const changes: ActivityChanges = Object.fromEntries(
    Object.entries(after).map(([field, value]) => [field, { before: before(field), after: value }]),
  );
  if (action === 'deactivate') {
    const now = answered?.status;
    changes.status = {
      before: before('status'),
      after: now === undefined ? undefined : keptValue(now),
    };
  }
  return changes;
}

/** A refused write's `svc_error.code`, and what the marketplace said (`errors`), if it did. */
function refusalOf(exchange: ProxiedExchange): { code: string | null; message: string | null } {
  if (exchange.status === 0) return { code: 'upstream_unreachable', message: null };
  if (exchange.status < 400) return { code: null, message: null };
  const body = jsonOfBytes(exchange.responseBody, { maxBytes: 64 * 1024, maxDepth: 8 });
  const error = isRecord(body) ? body.svc_error : undefined;
  const code = isRecord(error) && typeof error.code === 'string' ? shortText(error.code) : null;
  return { code, message: messageOf(isRecord(body) ? body.errors : undefined) };
}

/** `errors` as a line: a bare string, or each field's messages ("price must be at least 1.00"). */
function messageOf(errors: unknown): string | null {
  const fieldMessages = Object.entries(isRecord(errors) ? errors : {}).flatMap(
    ([field, messages]) =>
      [messages]
        .flat()
        .filter((message) => typeof message === 'string')
        .map((message) => `${field.replace(/_/g, ' ')} ${message}`),
  );
  const text = typeof errors === 'string' ? errors : fieldMessages.join('; ');
  const line = text.replace(/\s+/g, ' ').trim();
  return line ? line.slice(0, 300) : null;
}

/** The activity log of one server: its store, told of each call by the proxy. */
export const openActivityLog = (path: string) => new ActivityRecorder(new ActivityStore(path));
