import * as z from 'zod/mini';
import { ApiError, CLIENT_ERROR_CODES } from './api-error';
import { DegradedRecord } from './error-schemas';
import { acceptsAsIs } from './fast-accept';
import { readTolerant } from './tolerant-reader';
import type { RequestPriority } from './pacer';
import type { RawResponse, ResponseMeta, Transport } from './transport';
import { WalkGuard, WalkStoppedError } from './walk-guard';
import type { WalkFeed } from './walk-frames';

/** A collection endpoint: its path, envelope, row schema and the field that identifies a row. */
export interface CollectionSpec<S extends z.ZodMiniObject> {
  path: string;
  envelope: string;
  schema: S;
  /** The top-level field that identifies a row (`id`, or `inventory_item_id` for levels). */
  keyField: keyof z.infer<S> & string;
  /**
   * Read rows field by field (`readTolerant`): a row with an odd field is kept with what could be
   * read and the field named in its `unreadable`, instead of being set aside.
   */
  tolerant?: boolean;
}

/** A record of a 200 that was set aside: degraded by the service, or not matching the schema. */
export interface SetAsideRecord {
  id: string | undefined;
  kind: 'degraded' | 'unparseable';
  /** `svc_serialization_error.code` for a degraded record; `unexpected_response` otherwise. */
  code: string;
  message: string;
  /** For an unparseable record: which fields failed and why (`path: message`). */
  issues: string[];
  requestId: string | undefined;
}

export interface ParsedRows<T> {
  rows: T[];
  setAside: SetAsideRecord[];
}

/**
 * Parses the rows of a page one by one: good ones kept, degraded and bad ones set aside. With
 * `tolerant`, a row is read field by field and kept unless its key cannot be read.
 */
export function parseRows<T>(
  raw: unknown,
  schema: z.ZodMiniType<T>,
  keyField: string,
  requestId: string | undefined,
  tolerant = false,
): ParsedRows<T> {
  const rows: T[] = [];
  const setAside: SetAsideRecord[] = [];
  if (!Array.isArray(raw)) {
    throw new ApiError({
      status: 200,
      code: CLIENT_ERROR_CODES.badResponse,
      message: 'The collection envelope does not hold an array',
      requestId,
    });
  }
  for (const item of raw) {
    const id = idOf(item, keyField);
    if (isDegraded(item)) {
      const degraded = DegradedRecord.parse(item);
      setAside.push({
        id: degraded.id,
        kind: 'degraded',
        code: degraded.svc_serialization_error.code,
        message: degraded.svc_serialization_error.message,
        issues: [],
        requestId,
      });
      continue;
    }
    // Tolerant: read field by field (only a record without a readable id fails); strict: whole.
    const read = tolerant
      ? readTolerant(schema as unknown as z.ZodMiniObject, item, keyField)
      : strictRead(schema, item);
    if (read.ok) rows.push(read.value as T);
    else {
      setAside.push({
        id,
        kind: 'unparseable',
        code: CLIENT_ERROR_CODES.badResponse,
        message: 'The record does not match the expected shape',
        issues: read.issues,
        requestId,
      });
    }
  }
  return { rows, setAside };
}

function strictRead<T>(
  schema: z.ZodMiniType<T>,
  item: unknown,
): { ok: true; value: T } | { ok: false; issues: string[] } {
  if (acceptsAsIs(schema, item)) return { ok: true, value: item as T };
  const parsed = schema.safeParse(item);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : {
        ok: false,
        issues: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
      };
}

export function isDegraded(item: unknown): boolean {
  // The key first: a failed parse of each healthy row (its issues built, then dropped) is costly.
  const keyed = typeof item === 'object' && item !== null && 'svc_serialization_error' in item;
  return keyed && DegradedRecord.safeParse(item).success;
}

function idOf(item: unknown, keyField: string): string | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const value = (item as Record<string, unknown>)[keyField] ?? (item as { id?: unknown }).id;
  return typeof value === 'string' ? value : undefined;
}

export interface WalkOptions {
  /** Rows per page, 1 to 250 (default 250: the fewest requests). */
  limit?: number;
  /** Top-level fields to return; the key field is always added. */
  fields?: readonly string[];
  /** Only rows updated at or after this instant. */
  updatedAtMin?: string | Date;
  /** Extra filters of the endpoint (for orders: `status`). */
  filters?: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** How urgent the walk's requests are (default `interactive`; a poll is `background`). */
  priority?: RequestPriority;
  /** Most restarts after a stale or refused cursor (default 3). */
  maxRestarts?: number;
  /** Told when a walk restarts from the first page, with the cursor error. */
  onRestart?: (error: ApiError) => void;
  /** Most pages to read before the walk stops with `page_budget_exceeded` (default 2,000). */
  maxPages?: number;
  /**
   * How many pages to ask for ahead of the one being read, as soon as their `Link` arrives
   * (default 2; 0 for a walk that will read only its first page: its calls then ask the
   * dashboard's server to read none ahead either, see `RequestOptions.onlyThisPage`).
   */
  lookahead?: number;
  /**
   * The caller reads every page (a whole load, a kept copy's walk). Behind the dashboard's
   * server such a walk asks for its first page, then for all the others in one answer (see
   * Transport.openWalk); a walk that may stop early asks page by page, so no page is read that
   * nobody wanted.
   */
  whole?: boolean;
}

export interface Page<T> {
  /** Rows of this page not yielded before (after a restart, earlier rows are skipped). */
  rows: T[];
  setAside: SetAsideRecord[];
  meta: ResponseMeta;
  /** 1-based count of pages yielded in this walk. */
  number: number;
  /** How many times the walk had restarted from the first page when this page came. */
  restarts: number;
}

/** How many pages a walk asks for ahead of the one it is parsing. */
const LOOKAHEAD = 2;

/** The cursor errors after which a walk restarts from the first page. */
export const CURSOR_ERROR_CODES: ReadonlySet<string> = new Set([
  'invalid_page_info',
  'page_info_sort_mismatch',
  'page_info_resource_mismatch',
  'page_info_filter_mismatch',
]);

function firstPageQuery(options: WalkOptions, keyField: string) {
  const query: Record<string, string | number | undefined> = {
    limit: options.limit ?? 250,
    ...options.filters,
  };
  if (options.fields && options.fields.length > 0) {
    const fields = new Set(options.fields);
    fields.add(keyField);
    query.fields = [...fields].join(',');
  }
  if (options.updatedAtMin !== undefined) {
    query.updated_at_min =
      options.updatedAtMin instanceof Date
        ? options.updatedAtMin.toISOString()
        : options.updatedAtMin;
  }
  return query;
}

/** Each collection's schema with every field optional, built once (building one costs ms). */
const partials = new WeakMap<z.ZodMiniObject, z.ZodMiniObject>();
function partialOf(schema: z.ZodMiniObject): z.ZodMiniObject {
  let partial = partials.get(schema);
  if (!partial) partials.set(schema, (partial = z.partial(schema)));
  return partial;
}

/**
 * Walks every page of a collection: the first page from the options, then each `Link` rel="next"
 * verbatim, until there is none. A stale or refused cursor (400 `invalid_page_info` and the other
 * cursor errors) restarts the walk from the first page; rows already yielded are skipped, so no
 * row is yielded twice. With `fields`, rows are parsed with every field optional. A walk that
 * would not end (a cursor already followed, a page of rows all read before, more pages than
 * `maxPages`) throws a WalkStoppedError (`cursor_loop`, `page_budget_exceeded`) that keeps every
 * row and set-aside record yielded before it.
 */
export async function* walkPages<S extends z.ZodMiniObject>(
  transport: Transport,
  spec: CollectionSpec<S>,
  options: WalkOptions = {},
): AsyncGenerator<Page<z.infer<S>>, void, undefined> {
  // With `fields`, only some keys come back: each is still checked, none is required.
  const schema = (options.fields
    ? partialOf(spec.schema)
    : spec.schema) as unknown as z.ZodMiniType<z.infer<S>>;
  const seen = new Set<string>();
  const maxRestarts = options.maxRestarts ?? 3;
  let restarts = 0;
  let number = 0;
  let next: string | undefined;
  const guard = new WalkGuard(spec.path, options.maxPages);
  const read: { rows: z.infer<S>[]; setAside: SetAsideRecord[] } = { rows: [], setAside: [] };
  // Pages asked for as soon as the page before announced them (its `Link` header arrived), while
  // that page's body is still read and parsed: at most LOOKAHEAD ahead, taken in order.
  const lookahead = options.lookahead ?? LOOKAHEAD;
  const ahead = new Map<string, { promise: Promise<RawResponse>; controller: AbortController }>();
  // Behind the dashboard's server, a whole walk reads its first page with a call of its own and
  // every page after it from one answer, asked for once the first page is in hand (one round
  // trip more for the walk). The first rows then come in a small answer of their own, not at
  // the head of one that ends with the walk's last page: Lighthouse's model of a phone's
  // network charges an answer whole to whatever is drawn after its last byte arrived.
  const streams = options.whole === true && lookahead > 0;
  let feed: WalkFeed | undefined;
  const askAhead = (links: Record<string, string>) => {
    const url = links.next;
    if (url === undefined || ahead.has(url) || ahead.size >= lookahead) return;
    if (!guard.wouldFollow(transport.resolve(url))) return;
    const controller = new AbortController();
    const signals = [controller.signal, options.signal].filter((s) => s !== undefined);
    const promise = transport.request({
      path: url,
      signal: AbortSignal.any(signals),
      priority: options.priority,
      onLinks: askAhead,
      feed,
    });
    promise.catch(() => undefined); // awaited (and its error handled) when its turn comes
    ahead.set(url, { promise, controller });
  };
  const dropAhead = () => {
    for (const entry of ahead.values()) entry.controller.abort();
    ahead.clear();
  };
  try {
    for (;;) {
      let response;
      try {
        const early = next === undefined ? undefined : ahead.get(next);
        if (early && next !== undefined) ahead.delete(next);
        else dropAhead();
        if (streams && feed === undefined && next !== undefined) {
          feed = transport.openWalk(transport.resolve(next), options);
        }
        const first = next === undefined;
        response = early
          ? await early.promise
          : await transport.request({
              path: next ?? spec.path,
              query: next === undefined ? firstPageQuery(options, spec.keyField) : undefined,
              signal: options.signal,
              priority: options.priority,
              // A streaming walk's first page asks for nothing ahead: the rest comes in one answer.
              onLinks: streams && first ? undefined : askAhead,
              feed,
              onlyThisPage: lookahead === 0 || (streams && first),
            });
        // A page taken from those asked ahead may have come when the lookahead was full.
        if (early && response.status < 400) askAhead(response.meta.links);
      } catch (error) {
        if (
          next !== undefined &&
          error instanceof ApiError &&
          CURSOR_ERROR_CODES.has(error.code) &&
          restarts < maxRestarts
        ) {
          dropAhead();
          feed?.close();
          feed = undefined;
          restarts++;
          guard.restarted();
          options.onRestart?.(error);
          next = undefined;
          continue;
        }
        throw error;
      }
      const body = response.body as Record<string, unknown> | undefined;
      const parsed = parseRows(
        body?.[spec.envelope],
        schema,
        spec.keyField,
        response.meta.requestId,
        spec.tolerant,
      );
      const rows = parsed.rows.filter((row) => {
        const key = String((row as Record<string, unknown>)[spec.keyField]);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      const setAside = parsed.setAside.filter((record) => {
        if (record.id === undefined) return true;
        if (seen.has(record.id)) return false;
        seen.add(record.id);
        return true;
      });
      number++;
      yield { rows, setAside, meta: response.meta, number, restarts };
      read.rows.push(...rows);
      read.setAside.push(...setAside);
      next = response.meta.links.next;
      const stop = guard.check({
        fresh: rows.length + setAside.length,
        total: parsed.rows.length + parsed.setAside.length,
        next: next === undefined ? undefined : transport.resolve(next),
      });
      if (stop) {
        throw new WalkStoppedError(
          stop.code,
          stop.message,
          { ...read, pages: number },
          response.meta.requestId,
        );
      }
      if (next === undefined) return;
    }
  } finally {
    dropAhead();
    feed?.close();
  }
}

export interface LoadProgress {
  rows: number;
  pages: number;
  setAside: number;
}

export interface LoadOptions extends WalkOptions {
  onProgress?: (progress: LoadProgress) => void;
}

/** What a whole-collection load returns; `syncedAt` is the baseline for a later refresh. */
export interface CollectionSnapshot<T> {
  rows: T[];
  setAside: SetAsideRecord[];
  pages: number;
  restarts: number;
  /** The API's time (ISO) at or before the first page was read: every later change is after it. */
  syncedAt: string;
}

/** Loads a whole collection, reporting progress; abort it with `signal`. */
export async function loadAll<S extends z.ZodMiniObject>(
  transport: Transport,
  spec: CollectionSpec<S>,
  options: LoadOptions = {},
): Promise<CollectionSnapshot<z.infer<S>>> {
  // The baseline for a later refresh: the API's time before the first page was read. With the
  // clock learned from /ping it is that (less a second for the way there); otherwise the earlier
  // of our estimate and the first page's `Date` (whole seconds, so one second earlier).
  const fromPing = transport.clockSource === 'ping';
  let baseline = transport.serverNow() - (fromPing ? 1000 : 0);
  const rows: z.infer<S>[] = [];
  const setAside: SetAsideRecord[] = [];
  let pages = 0;
  let restarts = 0;
  for await (const page of walkPages(transport, spec, { ...options, whole: true })) {
    if (pages === 0 && !fromPing && page.meta.serverDate !== undefined) {
      baseline = Math.min(baseline, page.meta.serverDate - 1000);
    }
    pages++;
    restarts = page.restarts;
    rows.push(...page.rows);
    setAside.push(...page.setAside);
    options.onProgress?.({ rows: rows.length, pages, setAside: setAside.length });
  }
  return { rows, setAside, pages, restarts, syncedAt: new Date(baseline).toISOString() };
}

export interface RefreshOptions extends Omit<WalkOptions, 'updatedAtMin'> {
  /** Clock-skew overlap subtracted from the baseline (default 5 s). */
  overlapMs?: number;
}

export interface RefreshResult<T> extends CollectionSnapshot<T> {
  /** Rows that came back changed or new, merged into `rows`. */
  changed: T[];
}

/**
 * Incremental sync: reads only rows updated since the snapshot's `syncedAt` (minus a small
 * overlap for clock skew) and merges them by key: changed rows replace theirs in place, new rows
 * append at the tail (collections are oldest first). A row that comes back degraded keeps its
 * previous version and is reported in `setAside`.
 */
export async function refresh<S extends z.ZodMiniObject>(
  transport: Transport,
  spec: CollectionSpec<S>,
  snapshot: Pick<CollectionSnapshot<z.infer<S>>, 'rows' | 'syncedAt'>,
  options: RefreshOptions = {},
): Promise<RefreshResult<z.infer<S>>> {
  const since = Date.parse(snapshot.syncedAt) - (options.overlapMs ?? 5000);
  const loaded = await loadAll(transport, spec, {
    ...options,
    updatedAtMin: new Date(since).toISOString(),
  });
  const key = (row: z.infer<S>) => String((row as Record<string, unknown>)[spec.keyField]);
  const index = new Map<string, number>();
  const rows = [...snapshot.rows];
  rows.forEach((row, i) => index.set(key(row), i));
  for (const row of loaded.rows) {
    const at = index.get(key(row));
    if (at === undefined) {
      index.set(key(row), rows.length);
      rows.push(row);
    } else rows[at] = row;
  }
  return { ...loaded, rows, changed: loaded.rows };
}
