/** The client's collection resources, the API's collections, and single-resource parsing. */
import type * as z from 'zod/mini';
import { ApiError, CLIENT_ERROR_CODES } from './api-error';
import {
  isDegraded,
  loadAll,
  refresh,
  walkPages,
  type CollectionSnapshot,
  type CollectionSpec,
  type LoadOptions,
  type Page,
  type RefreshOptions,
  type RefreshResult,
  type WalkOptions,
} from './collections';
import { DegradedRecord } from './error-schemas';
import type { RequestPriority } from './pacer';
import { InventoryItem, InventoryLevel, ListingListItem, Order, Product } from './schemas';
import { readTolerant, type Readable } from './tolerant-reader';
import type { ResponseMeta, Transport } from './transport';

/** A parsed body with the meta of the response that carried it. */
export interface WithMeta<T> {
  data: T;
  meta: ResponseMeta;
}

export interface GetOptions {
  signal?: AbortSignal;
  /** How urgent the call is (default `interactive`). */
  priority?: RequestPriority;
}

export interface WriteOptions {
  /** Reuse a key to make a later call the same logical write (default: a fresh UUID). */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** How urgent the call is (default `interactive`; a bulk job's writes are `bulk`). */
  priority?: RequestPriority;
  /** Headers of this write only (a bulk job's `X-Slabdesk-Bulk-Job`). */
  headers?: Record<string, string>;
}

/** Options that name `fields`: the rows then carry only those keys (and the row key). */
type WithFields<O, T, K extends keyof T> = O & { fields: readonly K[] };
/** Options without `fields`: full rows. */
type WithoutFields<O> = O & { fields?: undefined };

/** Walk, load and refresh for one collection; with `fields`, rows are `Pick<Row, ...fields>`. */
export interface CollectionResource<T, F extends object = Record<never, never>> {
  /** Pages one by one (an async iterator); see walkPages. */
  pages<K extends keyof T & string>(
    options: WithFields<WalkOptions & F, T, K>,
  ): AsyncGenerator<Page<Pick<T, K>>, void, undefined>;
  pages(options?: WithoutFields<WalkOptions & F>): AsyncGenerator<Page<T>, void, undefined>;
  /** The whole collection, with progress and cancellation. */
  loadAll<K extends keyof T & string>(
    options: WithFields<LoadOptions & F, T, K>,
  ): Promise<CollectionSnapshot<Pick<T, K>>>;
  loadAll(options?: WithoutFields<LoadOptions & F>): Promise<CollectionSnapshot<T>>;
  /** Only what changed since `snapshot.syncedAt`, merged into `snapshot.rows`. */
  refresh<K extends keyof T & string>(
    snapshot: Pick<CollectionSnapshot<Pick<T, K>>, 'rows' | 'syncedAt'>,
    options: WithFields<RefreshOptions & F, T, K>,
  ): Promise<RefreshResult<Pick<T, K>>>;
  refresh(
    snapshot: Pick<CollectionSnapshot<T>, 'rows' | 'syncedAt'>,
    options?: WithoutFields<RefreshOptions & F>,
  ): Promise<RefreshResult<T>>;
}

export function collection<
  S extends z.ZodMiniObject,
  F extends object = Record<never, never>,
  Row = z.infer<S>,
>(transport: Transport, spec: CollectionSpec<S>): CollectionResource<Row, F> {
  // One implementation for both overloads: TypeScript cannot relate the generic row to the `Pick`
  // overloads, hence the cast (a tolerant spec's rows are `Readable`).
  const resource = {
    pages: (options?: WalkOptions & F) => walkPages(transport, spec, options),
    loadAll: (options?: LoadOptions & F) => loadAll(transport, spec, options),
    refresh: (
      snapshot: Pick<CollectionSnapshot<z.infer<S>>, 'rows' | 'syncedAt'>,
      options?: RefreshOptions & F,
    ) => refresh(transport, spec, snapshot, options),
  };
  return resource as unknown as CollectionResource<Row, F>;
}

/** One collection; its path is its envelope's name; `filters`: its query's own (see walkPages). */
const spec = <
  S extends z.ZodMiniObject,
  K extends keyof z.infer<S> & string = 'id' & keyof z.infer<S>,
>(
  envelope: string,
  schema: S,
  keyField = 'id' as K,
  filters: readonly string[] = [],
) => ({ path: `/${envelope}.json`, envelope, schema, keyField, filters }) as const;

export const COLLECTIONS = {
  listings: spec('listings', ListingListItem),
  products: spec('products', Product),
  orders: spec('orders', Order, 'id', ['status']),
  inventoryItems: spec('inventory_items', InventoryItem),
  // A level is a card's at a location: a card may have one at each.
  inventoryLevels: {
    ...spec('inventory_levels', InventoryLevel, 'inventory_item_id'),
    identity: ['inventory_item_id', 'location_id'],
  },
} satisfies Record<string, CollectionSpec<z.ZodMiniObject>>;

/** A 2xx whose `envelope` does not read as its schema says. */
function badShape(meta: ResponseMeta, envelope: string, issues: readonly string[]): ApiError {
  return new ApiError({
    status: meta.status,
    code: CLIENT_ERROR_CODES.badResponse,
    message: `The ${envelope} does not match the expected shape: ${issues.join('; ')}`,
    requestId: meta.requestId,
  });
}

/** One resource out of a single envelope; a degraded record becomes `degraded_record`. */
export function single<T>(
  body: unknown,
  envelope: string,
  schema: z.ZodMiniType<T>,
  meta: ResponseMeta,
): WithMeta<T> {
  const raw = (body as Record<string, unknown> | undefined)?.[envelope];
  if (isDegraded(raw)) {
    const { id, svc_serialization_error: why } = DegradedRecord.parse(raw);
    throw new ApiError({
      status: meta.status,
      code: 'degraded_record',
      message: `${id}: ${why.message}`,
      requestId: meta.requestId,
      reason: why.code,
    });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw badShape(
      meta,
      envelope,
      parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
    );
  }
  return { data: parsed.data, meta };
}

/** Like `single`, read field by field; only the key (`id`; none for ping) is required. */
export function singleTolerant<S extends z.ZodMiniObject, Key extends string = 'id'>(
  body: unknown,
  envelope: string,
  schema: S,
  meta: ResponseMeta,
  keyField: Key | undefined = 'id' as Key,
): WithMeta<Readable<z.infer<S>, Key>> {
  const raw = (body as Record<string, unknown> | undefined)?.[envelope];
  // A degraded record (and a missing envelope) fails exactly as `single` reports it.
  if (isDegraded(raw) || typeof raw !== 'object' || raw === null) {
    return single(body, envelope, schema, meta) as never;
  }
  const read = readTolerant(schema, raw, keyField);
  if (!read.ok) throw badShape(meta, envelope, read.issues);
  return { data: read.value, meta };
}

export const encodeId = (id: string) => encodeURIComponent(id);
