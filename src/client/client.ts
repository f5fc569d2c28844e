import * as z from 'zod/mini';
import type { ListingListItem, InventoryItem, InventoryLevel } from './schemas';
import {
  ListingCreated,
  ListingDeleted,
  ListingDetail,
  ListingUpdated,
  Location,
  Order,
  Ping,
  Product,
  type DurationHours,
  type OrderStatusFilter,
} from './schemas';
import type { ListingCreateInput, ListingUpdateInput } from './write-schemas';
import {
  collection,
  COLLECTIONS,
  encodeId,
  single,
  singleTolerant,
  type GetOptions,
  type WithMeta,
  type WriteOptions,
} from './resources';
import type { Readable } from './tolerant-reader';
import { ApiError, CLIENT_ERROR_CODES } from './api-error';
import { parseRows } from './collections';
import { ensureOk, Transport, type TransportOptions } from './transport';

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

export type ClientOptions = TransportOptions;

/** Creates the client; see index.ts for a usage example. */
export function createClient(options: ClientOptions = {}) {
  const transport = new Transport(options);

  /** A single-resource GET read field by field (every view): see `readTolerant`. */
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
          query: options.fields?.length ? { fields: options.fields.join(',') } : {},
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
        ...options,
        method,
        path,
        body,
        idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
      }),
    );
    return single(response.body, 'listing', schema, response.meta);
  }

  const listings = {
    ...collection<typeof ListingListItem, Record<never, never>, ListingRead>(
      transport,
      COLLECTIONS.listings,
    ),
    /** GET /listings/{id}.json read field by field; with `fields`, only those keys. */
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
  };
  /** Puts a draft or deactivated listing back live, optionally sizing the fresh window. */
  const reactivate = (
    id: string,
    options: WriteOptions & { durationHours?: z.infer<typeof DurationHours> } = {},
  ) =>
    listings.update(
      id,
      {
        status: 'active',
        ...(options.durationHours ? { duration_hours: options.durationHours } : {}),
      },
      options,
    );

  /** Runs one ListingWrite with the given key (a write queue's runner: see listing-write-queue). */
  const runListingWrite = async (
    op: ListingWrite,
    context: WriteOptions & { idempotencyKey: string },
  ): Promise<ListingWriteResult> => {
    switch (op.kind) {
      case 'create':
        return (await listings.create(op.input, context)).data;
      case 'update':
        return (await listings.update(op.id, op.patch, context)).data;
      case 'delete':
        return (await listings.delete(op.id, context)).data;
      case 'reactivate':
        return (await reactivate(op.id, { ...context, durationHours: op.durationHours })).data;
    }
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
    ...collection<typeof Order, { status?: OrderStatusFilter | undefined }, Order>(
      transport,
      COLLECTIONS.orders,
    ),
    /** GET /orders/{id}.json by order id or order code (`name`); with `fields`, only those keys. */
    get: tolerantGetter((idOrCode) => `/orders/${encodeId(idOrCode)}.json`, 'order', Order),
  };

  return {
    transport,
    /** GET /ping; also learns the API's clock from `server_time`. */
    async ping(options: GetOptions = {}): Promise<WithMeta<Ping>> {
      const response = ensureOk(await transport.request({ path: '/ping', signal: options.signal }));
      // Read field by field with no key: a ping result has no id, any field may be missing.
      const result = singleTolerant(response.body, 'ping', Ping, response.meta, undefined);
      const serverTime = result.data.server_time;
      if (serverTime !== undefined) {
        transport.noteServerTime(Date.parse(serverTime), result.meta.receivedAt);
      }
      return result as WithMeta<Ping>;
    },
    listings: { ...listings, reactivate, runWrite: runListingWrite },
    products,
    orders,
    inventoryItems: collection<typeof InventoryItem, Record<never, never>, InventoryItem>(
      transport,
      COLLECTIONS.inventoryItems,
    ),
    inventoryLevels: collection<typeof InventoryLevel, Record<never, never>, InventoryLevel>(
      transport,
      COLLECTIONS.inventoryLevels,
    ),
    locations: {
      /** GET /locations.json: exactly two, computed from the caller. */
      async list(options: GetOptions = {}): Promise<WithMeta<Location[]>> {
        const response = ensureOk(
          await transport.request({ path: '/locations.json', signal: options.signal }),
        );
        const raw = (response.body as Record<string, unknown> | undefined)?.locations;
        // Read field by field: only a location without a readable id (or degraded) is refused.
        const { rows, setAside } = parseRows<Location>(
          raw,
          Location,
          'id',
          response.meta.requestId,
        );
        if (setAside.length > 0) {
          throw new ApiError({
            status: response.meta.status,
            code: CLIENT_ERROR_CODES.badResponse,
            message: `The locations do not match the expected shape: ${setAside
              .map(
                (record) => `${record.id ?? '?'}: ${[record.message, ...record.issues].join('; ')}`,
              )
              .join(' | ')}`,
            requestId: response.meta.requestId,
          });
        }
        return { data: rows, meta: response.meta };
      },
    },
  };
}

export type SlabdeskClient = ReturnType<typeof createClient>;

/** A row of the listing list view as the tolerant reader gives it. */
export type ListingRead = Readable<ListingListItem>;
/** The listing single view as the tolerant reader gives it. */
export type ListingDetailRead = Readable<ListingDetail>;
