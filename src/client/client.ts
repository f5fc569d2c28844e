import * as z from 'zod/mini';
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
import {
  DegradedRecord,
  InventoryItem,
  InventoryLevel,
  ListingCreated,
  ListingDeleted,
  ListingDetail,
  ListingListItem,
  ListingUpdated,
  Location,
  Order,
  Ping,
  Product,
  type DurationHours,
  type OrderStatusFilter,
} from './schemas';
import type { ListingCreateInput, ListingUpdateInput } from './write-schemas';
import type { RequestPriority } from './pacer';
import { readTolerant, type Readable } from './tolerant-reader';
import { ensureOk, Transport, type ResponseMeta, type TransportOptions } from './transport';
import { WriteQueue } from './write-queue';

/** One listing write, as the write queue (and the bulk editor) describes it. */
export type ListingWrite =
  | { kind: 'create'; input: ListingCreateInput }
  | { kind: 'update'; id: string; patch: ListingUpdateInput }
  | { kind: 'delete'; id: string }
  | { kind: 'reactivate'; id: string; durationHours?: z.infer<typeof DurationHours> };

export type ListingWriteResult = ListingCreated | ListingUpdated | ListingDeleted;

/** A fresh `Idempotency-Key` (a UUID v4) for one logical write. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

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
}

/** Options that name `fields`: the rows then carry only those keys (and the row key). */
type WithFields<O, T, K extends keyof T> = O & { fields: readonly K[] };
/** Options without `fields`: full rows. */
type WithoutFields<O> = O & { fields?: undefined };

/**
 * Walk, load and refresh for one collection endpoint. With `fields`, the rows are typed as
 * `Pick<Row, ...fields>` (each present field is still checked by the schema).
 */
export interface CollectionResource<T, F extends object = Record<never, never>> {
  /** Pages one by one (an async iterator); see walkPages. */
  pages<K extends keyof T & string>(
    options: WithFields<WalkOptions & F, T, K>,
  ): AsyncGenerator<Page<Pick<T, K>>, void, undefined>;
  pages(options?: WithoutFields<WalkOptions & F>): AsyncGenerator<Page<T>, void, undefined>;
  /** Every row, page after page. */
  rows<K extends keyof T & string>(
    options: WithFields<WalkOptions & F, T, K>,
  ): AsyncGenerator<Pick<T, K>, void, undefined>;
  rows(options?: WithoutFields<WalkOptions & F>): AsyncGenerator<T, void, undefined>;
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

function collection<
  S extends z.ZodMiniObject,
  F extends object = Record<never, never>,
  Row = z.infer<S>,
>(
  transport: Transport,
  spec: CollectionSpec<S>,
  filterNames: readonly (keyof F & string)[] = [],
): CollectionResource<Row, F> {
  const split = <O extends object>(options: (O & F) | undefined): O => {
    if (!options) return {} as O;
    const filters: Record<string, string | undefined> = {};
    const rest: Record<string, unknown> = { ...(options as Record<string, unknown>) };
    for (const name of filterNames) {
      filters[name] = rest[name] as string | undefined;
      delete rest[name];
    }
    return { ...rest, filters } as O;
  };
  // One implementation serves both overloads: with `fields` the rows were parsed by the partial
  // schema and carry exactly the fields asked for, which is what the `Pick` overloads state.
  // TypeScript cannot relate the generic row type to its overloads here, hence the cast. A
  // tolerant spec's rows are `Readable` records (see tolerant-reader.ts), named by `Row`.
  const resource = {
    pages: (options?: WalkOptions & F) => walkPages(transport, spec, split<WalkOptions>(options)),
    async *rows(options?: WalkOptions & F) {
      for await (const page of walkPages(transport, spec, split<WalkOptions>(options))) {
        yield* page.rows;
      }
    },
    loadAll: (options?: LoadOptions & F) => loadAll(transport, spec, split<LoadOptions>(options)),
    refresh: (
      snapshot: Pick<CollectionSnapshot<z.infer<S>>, 'rows' | 'syncedAt'>,
      options?: RefreshOptions & F,
    ) => refresh(transport, spec, snapshot, split<RefreshOptions>(options)),
  };
  return resource as unknown as CollectionResource<Row, F>;
}

export const COLLECTIONS = {
  listings: {
    path: '/listings.json',
    envelope: 'listings',
    schema: ListingListItem,
    keyField: 'id',
    tolerant: true,
  },
  products: {
    path: '/products.json',
    envelope: 'products',
    schema: Product,
    keyField: 'id',
    tolerant: true,
  },
  orders: { path: '/orders.json', envelope: 'orders', schema: Order, keyField: 'id' },
  inventoryItems: {
    path: '/inventory_items.json',
    envelope: 'inventory_items',
    schema: InventoryItem,
    keyField: 'id',
  },
  inventoryLevels: {
    path: '/inventory_levels.json',
    envelope: 'inventory_levels',
    schema: InventoryLevel,
    keyField: 'inventory_item_id',
  },
} as const satisfies Record<string, CollectionSpec<z.ZodMiniObject>>;

/**
 * Parses one resource out of a single-resource envelope. A degraded record (200, reduced to its
 * id and `svc_serialization_error`) becomes an ApiError with code `degraded_record`.
 */
function single<T>(
  body: unknown,
  envelope: string,
  schema: z.ZodMiniType<T>,
  meta: ResponseMeta,
): WithMeta<T> {
  const raw = (body as Record<string, unknown> | undefined)?.[envelope];
  const degraded = DegradedRecord.safeParse(raw);
  if (degraded.success && typeof raw === 'object' && raw && 'svc_serialization_error' in raw) {
    throw new ApiError({
      status: meta.status,
      code: 'degraded_record',
      message: `${degraded.data.id}: ${degraded.data.svc_serialization_error.message}`,
      requestId: meta.requestId,
      reason: degraded.data.svc_serialization_error.code,
    });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new ApiError({
      status: meta.status,
      code: CLIENT_ERROR_CODES.badResponse,
      message: `The ${envelope} does not match the expected shape: ${parsed.error.issues
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
      requestId: meta.requestId,
    });
  }
  return { data: parsed.data, meta };
}

/** Like `single`, read field by field: an odd field is named in `unreadable`, not fatal. */
function singleTolerant<S extends z.ZodMiniObject>(
  body: unknown,
  envelope: string,
  schema: S,
  meta: ResponseMeta,
): WithMeta<Readable<z.infer<S>>> {
  const raw = (body as Record<string, unknown> | undefined)?.[envelope];
  // A degraded record (and a missing envelope) fails exactly as `single` reports it.
  if (isDegraded(raw) || typeof raw !== 'object' || raw === null) {
    return single(body, envelope, schema, meta) as never;
  }
  const read = readTolerant(schema, raw);
  if (!read.ok) {
    throw new ApiError({
      status: meta.status,
      code: CLIENT_ERROR_CODES.badResponse,
      message: `The ${envelope} does not match the expected shape: ${read.issues.join('; ')}`,
      requestId: meta.requestId,
    });
  }
  return { data: read.value, meta };
}

const encodeId = (id: string) => encodeURIComponent(id);

export type ClientOptions = TransportOptions;

/** Creates the client; see index.ts for a usage example. */
export function createClient(options: ClientOptions = {}) {
  const transport = new Transport(options);

  async function getOne<T>(
    path: string,
    envelope: string,
    schema: z.ZodMiniType<T>,
    query: Record<string, string | undefined> = {},
    signal?: AbortSignal,
    priority?: RequestPriority,
  ): Promise<WithMeta<T>> {
    const response = ensureOk(await transport.request({ path, query, signal, priority }));
    return single(response.body, envelope, schema, response.meta);
  }

  /**
   * A single-resource GET: the full record, or with `fields` only those keys (typed as a `Pick`,
   * each present key still checked by the schema).
   */
  function singleGetter<S extends z.ZodMiniObject>(
    pathOf: (id: string) => string,
    envelope: string,
    schema: S,
  ) {
    type Row = z.infer<S>;
    function get(id: string, options?: GetOptions & { fields?: undefined }): Promise<WithMeta<Row>>;
    function get<K extends keyof Row & string>(
      id: string,
      options: GetOptions & { fields: readonly K[] },
    ): Promise<WithMeta<Pick<Row, K>>>;
    function get(
      id: string,
      options: GetOptions & { fields?: readonly string[] } = {},
    ): Promise<WithMeta<unknown>> {
      const parser: z.ZodMiniType<unknown> = options.fields ? z.partial(schema) : schema;
      return getOne(
        pathOf(id),
        envelope,
        parser,
        fieldsQuery(options.fields),
        options.signal,
        options.priority,
      );
    }
    return get;
  }

  /** A single-resource GET read field by field (the listing views): see `readTolerant`. */
  function tolerantGetter<S extends z.ZodMiniObject>(
    pathOf: (id: string) => string,
    envelope: string,
    schema: S,
  ) {
    return async (
      id: string,
      options: GetOptions & { fields?: readonly string[] } = {},
    ): Promise<WithMeta<Readable<z.infer<S>>>> => {
      const response = ensureOk(
        await transport.request({
          path: pathOf(id),
          query: fieldsQuery(options.fields),
          signal: options.signal,
          priority: options.priority,
        }),
      );
      // With `fields`, only those keys come back: each is still checked, none is required.
      const parser = (options.fields ? z.partial(schema) : schema) as S;
      return singleTolerant(response.body, envelope, parser, response.meta);
    };
  }

  async function write<T>(
    method: 'POST' | 'PUT' | 'DELETE',
    path: string,
    body: unknown,
    schema: z.ZodMiniType<T>,
    options: WriteOptions = {},
  ): Promise<WithMeta<T>> {
    const response = ensureOk(
      await transport.request({
        method,
        path,
        body,
        idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
        signal: options.signal,
        priority: options.priority,
      }),
    );
    return single(response.body, 'listing', schema, response.meta);
  }

  function fieldsQuery(fields?: readonly string[]): Record<string, string> {
    return fields && fields.length > 0 ? { fields: fields.join(',') } : {};
  }

  const listings = {
    ...collection<typeof ListingListItem, Record<never, never>, ListingRead>(
      transport,
      COLLECTIONS.listings,
    ),
    /**
     * GET /listings/{id}.json (the single view), read field by field; with `fields`, only those
     * keys (the rest then reads as unreadable-free absent fields).
     */
    get: tolerantGetter((id) => `/listings/${encodeId(id)}.json`, 'listing', ListingDetail),
    /** POST /listings.json, with an Idempotency-Key kept across retries. */
    create: (input: ListingCreateInput, options?: WriteOptions) =>
      write('POST', '/listings.json', { listing: input }, ListingCreated, options),
    /** PUT /listings/{id}.json with only the fields to change. */
    update: (id: string, patch: ListingUpdateInput, options?: WriteOptions) =>
      write('PUT', `/listings/${encodeId(id)}.json`, { listing: patch }, ListingUpdated, options),
    /** DELETE /listings/{id}.json: soft deactivation (idempotent). */
    delete: (id: string, options?: WriteOptions) =>
      write('DELETE', `/listings/${encodeId(id)}.json`, undefined, ListingDeleted, options),
    /** Puts a draft or deactivated listing back live, optionally sizing the fresh window. */
    reactivate: (
      id: string,
      options: WriteOptions & { durationHours?: z.infer<typeof DurationHours> } = {},
    ) =>
      write(
        'PUT',
        `/listings/${encodeId(id)}.json`,
        {
          listing: {
            status: 'active',
            ...(options.durationHours ? { duration_hours: options.durationHours } : {}),
          },
        },
        ListingUpdated,
        options,
      ),
  };

  /** Runs one ListingWrite with the given key (used by the write queue). */
  const runListingWrite = async (
    op: ListingWrite,
    context: { idempotencyKey: string; priority?: RequestPriority },
  ): Promise<ListingWriteResult> => {
    switch (op.kind) {
      case 'create':
        return (await listings.create(op.input, context)).data;
      case 'update':
        return (await listings.update(op.id, op.patch, context)).data;
      case 'delete':
        return (await listings.delete(op.id, context)).data;
      case 'reactivate':
        return (
          await listings.reactivate(op.id, {
            ...context,
            ...(op.durationHours ? { durationHours: op.durationHours } : {}),
          })
        ).data;
    }
  };

  /**
   * A queue for many listing writes (bulk editing): per-item outcome, progress events,
   * pause/resume/cancel. Writes to the same listing run in the order added, one at a time.
   */
  const writeQueue = (
    options: {
      concurrency?: number;
      /** The priority of every write (default `bulk`: a long job never starves a click). */
      priority?: RequestPriority;
      /**
       * Asked just before each write is sent: a reason (e.g. `sold_meanwhile`) takes the write
       * out of the queue unsent; it fails with that code and no request is made.
       */
      skip?: (op: ListingWrite) => string | undefined;
    } = {},
  ) => {
    const priority = options.priority ?? 'bulk';
    const queue = new WriteQueue<ListingWrite, ListingWriteResult>(
      (op, context) => {
        const reason = options.skip?.(op);
        if (reason !== undefined) {
          return Promise.reject(
            new ApiError({
              status: 0,
              code: reason,
              message: `Not sent: ${reason.replace(/_/g, ' ')}`,
            }),
          );
        }
        return runListingWrite(op, { ...context, priority });
      },
      { concurrency: options.concurrency, newKey: newIdempotencyKey },
    );
    const keyOf = (op: ListingWrite) => (op.kind === 'create' ? undefined : op.id);
    return Object.assign(queue, {
      /** Adds listing writes, serialized per listing id. */
      addWrites: (ops: readonly ListingWrite[]) => queue.add(ops, { keyOf }),
    });
  };

  const products = {
    ...collection<typeof Product, Record<never, never>, Readable<Product>>(
      transport,
      COLLECTIONS.products,
    ),
    /** GET /products/{id}.json (the product shape), read field by field. */
    get: tolerantGetter((id) => `/products/${encodeId(id)}.json`, 'product', Product),
  };

  const orders = {
    ...collection<typeof Order, { status?: OrderStatusFilter | undefined }>(
      transport,
      COLLECTIONS.orders,
      ['status'],
    ),
    /** GET /orders/{id}.json by order id or order code (`name`); with `fields`, only those keys. */
    get: singleGetter((idOrCode) => `/orders/${encodeId(idOrCode)}.json`, 'order', Order),
  };

  return {
    transport,
    /** GET /ping; also learns the API's clock from `server_time`. */
    async ping(options: GetOptions = {}): Promise<WithMeta<Ping>> {
      const result = await getOne('/ping', 'ping', Ping, {}, options.signal);
      transport.noteServerTime(Date.parse(result.data.server_time), result.meta.receivedAt);
      return result;
    },
    listings: { ...listings, writeQueue },
    products,
    orders,
    inventoryItems: collection(transport, COLLECTIONS.inventoryItems),
    inventoryLevels: collection(transport, COLLECTIONS.inventoryLevels),
    locations: {
      /** GET /locations.json: exactly two, computed from the caller. */
      async list(options: GetOptions = {}): Promise<WithMeta<Location[]>> {
        return getOne('/locations.json', 'locations', z.array(Location), {}, options.signal);
      },
    },
  };
}

export type SlabdeskClient = ReturnType<typeof createClient>;

/** A row of the listing list view as the tolerant reader gives it. */
export type ListingRead = Readable<ListingListItem>;
/** The listing single view as the tolerant reader gives it. */
export type ListingDetailRead = Readable<ListingDetail>;
