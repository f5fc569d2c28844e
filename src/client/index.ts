/**
 * The typed Partner API 2026-07 client. Runs the same in the browser and in Node (plain fetch).
 *
 * @example
 * ```ts
 * import { createClient, ApiError } from '../client';
 *
 * // In the dashboard: the dev proxy at /api adds the key on the server side.
 * const api = createClient();
 * // Elsewhere: a deployment URL and a key (sent as X-Service-Access-Token, never in a URL).
 * const direct = createClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: token });
 *
 * // The live meter: last response meta (call limit, mode, version, request id) + bucket model.
 * const unsubscribe = api.transport.subscribe(() => render(api.transport.getState()));
 *
 * const { data: ping } = await api.ping();
 *
 * // The whole catalogue (250 per page through Link cursors), with progress and cancellation.
 * const controller = new AbortController();
 * const catalogue = await api.products.loadAll({
 *   signal: controller.signal,
 *   onProgress: ({ rows }) => console.log(rows),
 * });
 * catalogue.setAside; // degraded / unparseable records: { id, kind, code, message }
 * // Later: only what changed since, merged by id (usually one request).
 * const fresh = await api.products.refresh(catalogue);
 *
 * // Page by page, or row by row.
 * for await (const page of api.orders.pages({ status: 'open', limit: 50 })) page.rows;
 *
 * // Writes carry an Idempotency-Key kept across retries; errors are one ApiError type.
 * try {
 *   await api.listings.update('lst_1', { price: '125.00' });
 * } catch (error) {
 *   if (error instanceof ApiError && error.code === 'validation_error') error.fieldErrors.price;
 * }
 *
 * // Many writes: per-item outcome (done / failed with its ApiError / cancelled) and progress.
 * // (listingWriteQueue from './listing-write-queue')
 * const queue = listingWriteQueue(api, { concurrency: 4 });
 * queue.subscribe(({ done, failed, total }) => console.log(done, failed, total));
 * queue.addWrites([{ kind: 'update', id: 'lst_1', patch: { price: '99.00' } }]);
 * for (const item of await queue.settled()) if (item.status === 'failed') item.error?.code;
 * // queue.pause(), queue.resume(), queue.cancel() (pending items only), queue.retryFailed()
 * ```
 */
export { createClient, newIdempotencyKey, COLLECTIONS } from './client';
export type {
  ListingWrite,
  ListingWriteResult,
  ClientOptions,
  CollectionResource,
  GetOptions,
  ListingDetailRead,
  ListingRead,
  SlabdeskClient,
  WithMeta,
  WriteOptions,
} from './client';
export { readTolerant } from './tolerant-reader';
export type { Readable, ReadResult } from './tolerant-reader';
export { ApiError, CLIENT_ERROR_CODES, isApiError, parseRetryAfter } from './api-error';
export type { ApiErrorInit } from './api-error';
export {
  CURSOR_ERROR_CODES,
  isDegraded,
  loadAll,
  parseRows,
  refresh,
  walkPages,
} from './collections';
export type {
  CollectionSnapshot,
  CollectionSpec,
  LoadOptions,
  LoadProgress,
  Page,
  RefreshOptions,
  RefreshResult,
  SetAsideRecord,
  WalkOptions,
} from './collections';
export { DEFAULT_PAGE_BUDGET, WalkStoppedError } from './walk-guard';
export type { WalkPartial } from './walk-guard';
export { parseLinkValues } from './link-header';
export type { LinkValue } from './link-header';
export { BUCKET_RATES, LeakyBucketPacer, REQUEST_PRIORITIES } from './pacer';
export { sleep } from './abortable';
export type { BucketSnapshot, KeyMode, PacerOptions, PacerTicket, RequestPriority } from './pacer';
export {
  API_VERSION,
  DEFAULT_BASE_URL,
  DEFAULT_DEADLINE_MS,
  DEFAULT_RETRY,
  PRIORITY_HEADER,
  RETRY_AFTER_CODES,
  Transport,
  parseCallLimit,
  parseLinkHeader,
} from './transport';
export type {
  RawResponse,
  RequestOptions,
  ResponseMeta,
  RetryPolicy,
  TransportOptions,
  TransportState,
} from './transport';
// The write queue is imported from its own modules (`client/listing-write-queue`) by the bulk
// editor: re-exported here it would travel in the first load, which never queues writes.
export type {
  ListingWriteQueue,
  ListingWriteQueueOptions,
  ListingWriter,
} from './listing-write-queue';
export type {
  WriteItem,
  WriteProgress,
  WriteQueueOptions,
  WriteRunner,
  WriteStatus,
} from './write-queue';
export * from './schemas';
export * from './error-schemas';
export type { ListingCreateInput, ListingUpdateInput } from './write-schemas';
// The write schemas and the listing rules (classic zod) are imported from their own modules by
// the forms and the bulk editor, so the first page's bundle never carries them.
