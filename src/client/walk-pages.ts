import * as z from 'zod/mini';
import { ApiError } from './api-error';
import type { RequestPriority } from './pacer';
import { parseRows, type SetAsideRecord } from './parse-rows';
import type { RawResponse, ResponseMeta, Transport } from './transport';
import { WalkGuard, WalkStoppedError } from './walk-guard';

/** A collection endpoint: its path, envelope, row schema (read field by field) and row key. */
export interface CollectionSpec<S extends z.ZodMiniObject> {
  path: string;
  envelope: string;
  schema: S;
  /** The top-level field that identifies a row (`id`, or `inventory_item_id` for levels). */
  keyField: keyof z.infer<S> & string;
  /** The endpoint's filters, each read from the walk's options by its name (orders: `status`). */
  filters?: readonly string[];
  /** The fields that together tell one row from another (default the key field alone). */
  identity?: readonly string[];
}

export interface WalkOptions {
  /** Rows per page, 1 to 250 (default 250: the fewest requests). */
  limit?: number;
  /** Top-level fields to return; the key field is always added. */
  fields?: readonly string[];
  /** Only rows updated at or after this instant. */
  updatedAtMin?: string | Date;
  signal?: AbortSignal;
  /** How urgent the walk's requests are (default `interactive`; a poll is `background`). */
  priority?: RequestPriority;
  /** Most restarts after a stale or refused cursor (default 3). */
  maxRestarts?: number;
  /** Told when a walk restarts from the first page, with the cursor error. */
  onRestart?: (error: ApiError) => void;
  /** Most pages to read before the walk stops with `page_budget_exceeded` (default 2,000). */
  maxPages?: number;
  /** Pages asked for ahead of the one read (default 2; 0: each once the one before is read). */
  lookahead?: number;
  /**
   * Whether the walk keeps every row it yielded, for the partial of a walk stopped later (default
   * true); a reader that stores each page as it comes passes false, and holds no page it stored.
   */
  keepRead?: boolean;
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

function firstPageQuery(options: WalkOptions, spec: CollectionSpec<z.ZodMiniObject>) {
  const query: Record<string, string | number | undefined> = { limit: options.limit ?? 250 };
  for (const name of spec.filters ?? []) {
    query[name] = (options as Record<string, string | undefined>)[name];
  }
  if (options.fields && options.fields.length > 0) {
    const fields = new Set(options.fields);
    fields.add(spec.keyField);
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

/** Adds `key` to `seen`; false when it was there (a record without a key is always new). */
export function isNew(seen: Set<string>, key: string | undefined): boolean {
  if (key === undefined) return true;
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}

/** Walks every page by `rel="next"`; a stale cursor restarts, a runaway walk throws. */
export async function* walkPages<S extends z.ZodMiniObject>(
  transport: Transport,
  spec: CollectionSpec<S>,
  options: WalkOptions = {},
): AsyncGenerator<Page<z.infer<S>>, void, undefined> {
  // With `fields`, only some keys come back: each is still checked, none is required.
  const schema = options.fields ? partialOf(spec.schema) : spec.schema;
  const seen = new Set<string>();
  const identity = spec.identity ?? [spec.keyField];
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
        response = early
          ? await early.promise
          : await transport.request({
              path: next ?? spec.path,
              query: next === undefined ? firstPageQuery(options, spec) : undefined,
              signal: options.signal,
              priority: options.priority,
              onLinks: askAhead,
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
          restarts++;
          guard.restarted();
          options.onRestart?.(error);
          next = undefined;
          continue;
        }
        throw error;
      }
      const body = response.body as Record<string, unknown> | undefined;
      const parsed = parseRows<z.infer<S>>(
        body?.[spec.envelope],
        schema,
        spec.keyField,
        response.meta.requestId,
      );
      const rows = parsed.rows.filter((row) =>
        isNew(seen, identity.map((field) => String(row[field])).join('\u0000')),
      );
      const setAside = parsed.setAside.filter((record) => isNew(seen, record.id));
      number++;
      yield { rows, setAside, meta: response.meta, number, restarts };
      if (options.keepRead ?? true) {
        read.rows.push(...rows);
        read.setAside.push(...setAside);
      }
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
    // A walk that ended has nothing of its own left in flight when its end is told.
    const pending = [...ahead.values()].map((entry) => entry.promise);
    dropAhead();
    await Promise.allSettled(pending);
  }
}
