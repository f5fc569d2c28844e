import type {
  LeakyBucketPacer,
  BucketSnapshot,
  KeyMode,
  PacerOptions,
  RequestPriority,
} from './pacer';

/** The transport's options and what it answers: its types and its retry policy. */

/** What every API response says about itself, beside its body. */
export interface ResponseMeta {
  method: string;
  url: string;
  status: number;
  requestId: string | undefined;
  /** `X-Service-Api-Call-Limit`, parsed. */
  callLimit: { used: number; capacity: number } | undefined;
  mode: KeyMode | undefined;
  version: string | undefined;
  /** The server's `Date` header as epoch ms (second precision), when exposed. */
  serverDate: number | undefined;
  /** Local epoch ms when the response arrived. */
  receivedAt: number;
  durationMs: number;
  /** 1 for the first try of a logical request, 2 for its first retry, ... */
  attempt: number;
  /** `Link` rels, parsed (collections only), each URL absolute: read against the answer's URL. */
  links: Record<string, string>;
  /** True when the server replayed the stored outcome of an earlier try with the same key. */
  replayed: boolean;
  /** `Sunset` / `Deprecation` headers, when the version is deprecated. */
  sunset: string | undefined;
  deprecation: string | undefined;
}

/** What the dashboard shows as a live meter: the last response and the bucket model. */
export interface TransportState {
  last: ResponseMeta | undefined;
  bucket: BucketSnapshot;
  /** Responses counted by status class since the transport was made. */
  counts: { requests: number; rateLimited: number; retried: number; failed: number };
  /** The last 429 `Retry-After` wait (seconds) and its end (epoch ms), shown while it lasts. */
  rateLimitWait: { seconds: number; until: number } | undefined;
}

export interface RetryPolicy {
  /** Most 429 retries of one logical request (default 10). */
  rateLimited: number;
  /** Total seconds one request may spend waiting on 503 `Retry-After`s (default 60). */
  unavailableBudgetSeconds: number;
  /** Most retries after a dropped connection, a timeout or a 5xx without Retry-After (default 4). */
  transient: number;
  /** First backoff for transient failures, doubled each time (default 250 ms). */
  backoffMs: number;
}

export const DEFAULT_DEADLINE_MS = 75_000;

export const DEFAULT_RETRY: RetryPolicy = {
  rateLimited: 10,
  unavailableBudgetSeconds: 60,
  transient: 4,
  backoffMs: 250,
};

/** 5xx codes that are final; `upstream_paused`: our server refuses calls for a long pause. */
export const FINAL_CODES: ReadonlySet<string> = new Set([
  'partner_api_disabled',
  'upstream_paused',
]);

/** 503/409 codes meaning "nothing happened, come back after Retry-After": retried in budget. */
export const RETRY_AFTER_CODES: ReadonlySet<string> = new Set([
  'cert_lookup_unavailable',
  'partner_api_writes_disabled',
  'idempotency_request_in_flight',
]);

export interface TransportOptions {
  /** `/api` (the dev proxy) by default, or a deployment's URL such as `https://host`. */
  baseUrl?: string;
  /** The API key, sent as `X-Service-Access-Token`. Omit when a proxy adds it. */
  apiKey?: string;
  version?: string;
  fetch?: typeof fetch;
  /** Per-attempt timeout in ms (default 30 000). */
  timeoutMs?: number;
  /** Deadline of one logical request, waits and retries included (default 75 s). */
  deadlineMs?: number;
  retry?: Partial<RetryPolicy>;
  /** One base URL and key share a bucket model by default; options give their own or a pacer. */
  pacing?: PacerOptions | LeakyBucketPacer;
  /** Called with the meta of every response (each attempt). */
  onResponse?: (meta: ResponseMeta) => void;
  /** Send `X-Slabdesk-Priority` and `X-Slabdesk-Tab`: for our own server only. */
  sendPriority?: boolean;
  /** Headers added on every attempt (the CSRF token); the client knows nothing of sessions. */
  headers?: (request: { method: string; url: string }) => Record<string, string>;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** A path under the version root (`/listings.json`), or a full URL (a `Link` target). */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Sent on writes; the same value on every retry of this request. */
  idempotencyKey?: string;
  signal?: AbortSignal | undefined;
  /** How urgent the call is (default `interactive`): orders the pacer's and the server's queues. */
  priority?: RequestPriority | undefined;
  /** Told a response's `Link` rels on its headers, so a walk asks for the next page early. */
  onLinks?: ((links: Record<string, string>) => void) | undefined;
  /** Headers of this request only (a bulk job's writes name their job). */
  headers?: Record<string, string> | undefined;
}

export interface RawResponse {
  status: number;
  body: unknown;
  headers: Headers;
  meta: ResponseMeta;
}
