/** The typed Partner API 2026-07 client, the same in the browser and in Node (plain fetch). */
export { createClient, newIdempotencyKey } from './client';
export type {
  ListingWrite,
  ListingWriteResult,
  ClientOptions,
  ListingDetailRead,
  ListingRead,
  SlabdeskClient,
} from './client';
export { readTolerant } from './tolerant-reader';
export { readOrderPayload, readProductPayload, type ProductPayload } from './webhook-payloads';
export { ApiError, isApiError } from './api-error';
export { isNew } from './collections';
export type { Page, SetAsideRecord } from './collections';
export { WalkStoppedError } from './walk-guard';
export { BUCKET_RATES, LeakyBucketPacer } from './pacer';
export { API_VERSION, DEFAULT_DEADLINE_MS } from './transport';
export { parseLinkHeader } from './link-header';
export type { ResponseMeta } from './transport';
// The write queue, the write schemas and the listing rules are imported from their own modules,
// so the first page's bundle never carries them.
export type { ListingWriteQueue } from './listing-write-queue';
export type { WriteItem, WriteProgress } from './write-queue';
export * from './schemas';
export * from './error-schemas';
export type { ListingCreateInput, ListingUpdateInput } from './write-schemas';
