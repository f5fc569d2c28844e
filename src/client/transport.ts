import { ApiError, CLIENT_ERROR_CODES } from './api-error';
import { resolveApiUrl } from './api-urls';
import { parseLinkHeaderAt } from './link-header';
import { abortError, anySignal, sleep } from './abortable';
import { Listeners } from './listeners';
import { LeakyBucketPacer, type KeyMode } from './pacer';
import { responseMetaOf } from './response-meta';
import {
  DEFAULT_DEADLINE_MS,
  DEFAULT_RETRY,
  FINAL_CODES,
  RETRY_AFTER_CODES,
  type ResponseMeta,
  type TransportState,
  type RetryPolicy,
  type TransportOptions,
  type RequestOptions,
  type RawResponse,
} from './transport-types';

// Every type and default of the transport, for importers of this module.
export * from './transport-types';

export const API_VERSION = '2026-07';
/** The dashboard's dev proxy serves the API under this path. */
export const DEFAULT_BASE_URL = '/api';
/** How urgent a call is, for our server (see `RequestPriority`); never forwarded. */
export const PRIORITY_HEADER = 'X-Slabdesk-Priority';
/** The calling tab, for our server: a tab waits behind its own hung calls only. */
export const TAB_HEADER = 'X-Slabdesk-Tab';

/** The longest 429 `Retry-After` waited out; a longer one fails the call at once. */
export const MAX_RATE_LIMIT_WAIT_SECONDS = 60;

/** One bucket model per API and key, shared by every transport that uses them (the default). */
const sharedPacers = new Map<string, LeakyBucketPacer>();

function sharedPacer(baseUrl: string, apiKey: string | undefined): LeakyBucketPacer {
  const id = `${baseUrl} ${apiKey ?? ''}`;
  let pacer = sharedPacers.get(id);
  if (!pacer) {
    pacer = new LeakyBucketPacer({ mode: modeFromKey(apiKey) });
    sharedPacers.set(id, pacer);
  }
  return pacer;
}

function modeFromKey(key: string | undefined): KeyMode {
  return key?.startsWith('svc_live_') ? 'live' : 'test';
}

/** The HTTP layer: URLs, key, pacing, meta, and retries only where safe. */
export class Transport {
  readonly baseUrl: string;
  readonly version: string;
  readonly pacer: LeakyBucketPacer;
  private readonly apiKey: string | undefined;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  private readonly deadlineMs: number;
  private readonly retry: RetryPolicy;
  private readonly onResponse: ((meta: ResponseMeta) => void) | undefined;
  private readonly sendPriority: boolean;
  /** This tab's id for our server (`TAB_HEADER`, 16 random bytes in hex), sent with the priority. */
  private readonly tabId = [...crypto.getRandomValues(new Uint8Array(16))]
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('');
  private readonly extraHeaders: TransportOptions['headers'];
  private state: TransportState;
  private readonly listeners = new Listeners();
  /** Offset of the API's clock from ours (ms), learned from `/ping` or `Date`. */
  private clockOffset: { ms: number; source: 'ping' | 'date' } | undefined;

  constructor(options: TransportOptions = {}) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.version = options.version ?? API_VERSION;
    this.apiKey = options.apiKey;
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.onResponse = options.onResponse;
    this.sendPriority = options.sendPriority ?? false;
    this.extraHeaders = options.headers;
    this.pacer =
      options.pacing instanceof LeakyBucketPacer
        ? options.pacing
        : options.pacing
          ? new LeakyBucketPacer({ mode: modeFromKey(options.apiKey), ...options.pacing })
          : sharedPacer(this.baseUrl, options.apiKey);
    this.state = {
      last: undefined,
      bucket: this.pacer.snapshot(),
      counts: { requests: 0, rateLimited: 0, retried: 0, failed: 0 },
      rateLimitWait: undefined,
    };
    this.pacer.subscribe(() => this.publish({ bucket: this.pacer.snapshot() }));
  }

  /** The current state; the same object until something changes (for useSyncExternalStore). */
  getState = (): TransportState => this.state;

  subscribe = this.listeners.subscribe;

  private publish(patch: Partial<TransportState>): void {
    this.state = { ...this.state, ...patch };
    this.listeners.tell();
  }

  private count(key: keyof TransportState['counts']): void {
    this.publish({ counts: { ...this.state.counts, [key]: this.state.counts[key] + 1 } });
  }

  /** The API's clock now (epoch ms), as best known: `/ping` server_time, else `Date`, else ours. */
  serverNow(): number {
    return Date.now() + (this.clockOffset?.ms ?? 0);
  }

  /** Where the clock estimate comes from: `/ping`'s server_time, a `Date` header, or nothing yet. */
  get clockSource(): 'ping' | 'date' | undefined {
    return this.clockOffset?.source;
  }

  /** Records the API's time from `/ping`'s `server_time` (preferred over `Date`). */
  noteServerTime(serverTimeMs: number, receivedAt: number): void {
    this.clockOffset = { ms: serverTimeMs - receivedAt, source: 'ping' };
  }

  /** Headers for every request (the CSRF token), for our own server's calls. */
  headersFor(method: string, url: string): Record<string, string> {
    return this.extraHeaders?.({ method, url }) ?? {};
  }

  /** The absolute URL of a path under the version root, or of a `Link` target. */
  resolve(path: string, query?: RequestOptions['query']): string {
    return resolveApiUrl(this.baseUrl, this.version, path, query);
  }

  /** One logical request, paced and retried within its deadline; throws ApiError. */
  async request(options: RequestOptions): Promise<RawResponse> {
    const method = options.method ?? 'GET';
    const url = this.resolve(options.path, options.query);
    const retriable = method === 'GET' || options.idempotencyKey !== undefined;
    const deadline = AbortSignal.timeout(this.deadlineMs);
    const signal = anySignal([options.signal, deadline]);
    const scoped: RequestOptions = { ...options, signal };
    let last: ApiError | undefined;
    const expired = () => {
      this.count('failed');
      const seconds = Math.round(this.deadlineMs / 100) / 10;
      return new ApiError({
        status: 0,
        code: CLIENT_ERROR_CODES.deadline,
        message: last
          ? `No answer within ${seconds} s: the last try failed with ${[last.status || '', last.code].join(' ').trim()}`
          : `No answer within ${seconds} s`,
        requestId: last?.requestId,
        retryAfter: last?.retryAfter,
        cause: last,
      });
    };
    const pastDeadline = () => deadline.aborted && !options.signal?.aborted;
    let rateLimitedRetries = 0;
    let transientRetries = 0;
    let unavailableWaited = 0;
    for (let attempt = 1; ; attempt++) {
      let outcome: RawResponse | ApiError;
      try {
        outcome = await this.attempt(method, url, scoped, attempt);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        outcome = error;
      }
      if (pastDeadline()) throw expired();
      if (!(outcome instanceof ApiError) && outcome.status < 400) return outcome;
      const error =
        outcome instanceof ApiError
          ? outcome
          : ApiError.fromResponse(outcome.status, outcome.headers, outcome.body);
      last = error;

      let waitMs: number | undefined;
      if (error.code === CLIENT_ERROR_CODES.aborted) throw error;
      if (
        error.status === 429 &&
        rateLimitedRetries < this.retry.rateLimited &&
        (error.retryAfter ?? 1) <= MAX_RATE_LIMIT_WAIT_SECONDS
      ) {
        rateLimitedRetries++;
        const seconds = error.retryAfter ?? 1;
        this.count('rateLimited');
        this.pacer.pauseFor(seconds);
        const until = Date.now() + seconds * 1000;
        if (until > (this.state.rateLimitWait?.until ?? 0))
          this.publish({ rateLimitWait: { seconds, until } });
        // A pacing client's pacer holds the retry until the bucket has room again.
        waitMs = this.pacer.enabled ? 0 : seconds * 1000;
      } else if (RETRY_AFTER_CODES.has(error.code)) {
        const seconds = error.retryAfter ?? 1;
        if (unavailableWaited + seconds <= this.retry.unavailableBudgetSeconds) {
          unavailableWaited += seconds;
          waitMs = seconds * 1000;
        }
      } else if (
        retriable &&
        transientRetries < this.retry.transient &&
        (error.status === 0 || error.status >= 500) &&
        !FINAL_CODES.has(error.code)
      ) {
        transientRetries++;
        waitMs =
          error.retryAfter !== undefined
            ? error.retryAfter * 1000
            : this.retry.backoffMs * 2 ** (transientRetries - 1) * (0.75 + Math.random() * 0.5);
      }
      if (waitMs === undefined) {
        this.count('failed');
        throw error;
      }
      this.count('retried');
      if (waitMs > 0) {
        try {
          await sleep(waitMs, signal);
        } catch (aborted) {
          if (pastDeadline()) throw expired();
          throw aborted;
        }
      }
    }
  }

  private async attempt(
    method: string,
    url: string,
    options: RequestOptions,
    attempt: number,
  ): Promise<RawResponse> {
    const ticket = await this.pacer.acquire(options.signal, options.priority);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.sendPriority) {
      headers[PRIORITY_HEADER] = options.priority ?? 'interactive';
      headers[TAB_HEADER] = this.tabId;
    }
    if (this.apiKey) headers['X-Service-Access-Token'] = this.apiKey;
    if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
    Object.assign(headers, this.extraHeaders?.({ method, url }), options.headers);
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const started = Date.now();
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = anySignal([options.signal, timeout]);
    let response: Response;
    let text: string;
    try {
      response = await this.fetchImpl(url, { method, headers, body, signal });
      if (options.onLinks && response.ok)
        options.onLinks(parseLinkHeaderAt(response.headers.get('link'), url));
      text = await response.text();
    } catch (cause) {
      ticket.settle();
      if (options.signal?.aborted) throw abortError(options.signal);
      if (timeout.aborted) throw abortError(timeout);
      throw new ApiError({
        status: 0,
        code: CLIENT_ERROR_CODES.network,
        message: `The connection failed: ${cause instanceof Error ? cause.message : String(cause)}`,
        cause,
      });
    }
    const meta = responseMetaOf(method, url, response, started, attempt);
    ticket.settle({
      used: meta.callLimit?.used,
      capacity: meta.callLimit?.capacity,
      mode: meta.mode,
      status: response.status,
    });
    if (meta.serverDate !== undefined && this.clockOffset?.source !== 'ping') {
      this.clockOffset = { ms: meta.serverDate - meta.receivedAt, source: 'date' };
    }
    this.count('requests');
    this.publish({ last: meta });
    this.onResponse?.(meta);
    let parsed: unknown = undefined;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch (cause) {
        if (response.ok) {
          throw new ApiError({
            status: response.status,
            code: CLIENT_ERROR_CODES.badResponse,
            message: 'The response body is not JSON',
            requestId: meta.requestId,
            cause,
          });
        }
      }
    }
    return { status: response.status, body: parsed, headers: response.headers, meta };
  }
}

/** Throws the response's ApiError unless it is a 2xx. */
export function ensureOk(response: RawResponse): RawResponse {
  if (response.status >= 200 && response.status < 300) return response;
  throw ApiError.fromResponse(response.status, response.headers, response.body);
}
