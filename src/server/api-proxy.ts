import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { MAX_BODY_BYTES } from '../shared/spec-limits';
import { priorityOf, type KeyGovernor } from './governor/key-governor';
import { answerBody } from './answer-body';
import { sendEnvelope } from './error-envelope';
import { isPing, type PingShare } from './ping-share';
import { redactText } from './key-redaction';
import { forwardedQuery, withoutCredentials } from './query-allowlist';
import { sealLink, unsealedQuery } from './link-seal';
import { readBody } from './read-body';
import { acceptsGzip, ANSWER_GZIP_LEVEL, fromThisMachine, sendBody } from './gzip-reply';
import type { UpstreamAnswer, UpstreamLimits } from './upstream-call';
import { callTermsOf, governedUpstreamCall, type CallTerms } from './governed-call';
import type { Actor } from './auth/roles';
import { serverLog } from './log';
import { requestUrl } from './request-url';

/** Where the proxy sends API calls, and the key it adds. Never leaves the server. */
export interface Upstream {
  /** `{base_url}` without the version, e.g. `http://127.0.0.1:4010`. */
  baseUrl: string;
  apiKey: string;
}

export interface ProxyOptions {
  /**
   * Gzip for a browser on this machine too (default false: over loopback packing only costs CPU).
   */
  gzipLoopback?: boolean;
  /** The last ping answered, given again for a minute (one per deployment); unset: every ping asks. */
  pings?: PingShare | null | undefined;
  /** Who made the call, for the activity log; unset: sign-in is off ("This computer"). */
  actor?: ProxyActor | null;
  /**
   * The caller's session (e.g. its id's hash): its calls take turns with other sessions' in the
   * governor. Unset: the actor's name, else the client's address.
   */
  session?: string | undefined;
  /** Deadline, silence and body cap of each upstream call (default DEFAULT_UPSTREAM_LIMITS). */
  upstreamLimits?: Partial<UpstreamLimits> | undefined;
  /** Told every answered call after its answer was sent; never allowed to break or delay it. */
  onAnswered?: ((exchange: ProxiedExchange) => void) | undefined;
}

/** The person behind a call, as the server's sign-in resolves it. */
export type ProxyActor = Actor;

/** One call the proxy answered, as `ProxyOptions.onAnswered` is told it. */
export interface ProxiedExchange {
  method: string;
  /** The upstream path, e.g. `/2026-07/listings/12.json`. */
  path: string;
  requestBody: Buffer | undefined;
  /** `X-Slabdesk-Bulk-Job`: the bulk job a write belongs to. */
  bulkJobId: string | undefined;
  /** The upstream's status; 0 when the upstream could not be reached. */
  status: number;
  responseHeaders: Headers | undefined;
  /** The body as the browser got it (the key redacted), unpacked. */
  responseBody: Buffer | undefined;
  actor: ProxyActor | null;
}

/** Tells `onAnswered` of a call; whatever it throws is logged, never the caller's problem. */
function tellAnswered(options: ProxyOptions, exchange: ProxiedExchange): void {
  if (!options.onAnswered) return;
  try {
    options.onAnswered(exchange);
  } catch (error) {
    serverLog.error({ err: error }, 'The activity log could not take a call');
  }
}

/** The request's one header value, or undefined (absent, or given more than once). */
function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** The browser's API prefix: `/api/2026-07/...` mirrors `{base_url}/2026-07/...`. */
export const API_PREFIX = '/api/';

/** The proxy's paths: `/api/<version>/...` (and `/api`, answered as not found there). */
export const isApiPath = (pathname: string): boolean =>
  pathname.startsWith(API_PREFIX) || pathname === '/api';
/**
 * Request headers the browser may pass on; credentials, cookies and our priority header stay here.
 */
const FORWARDED_REQUEST_HEADERS = ['accept', 'content-type', 'idempotency-key'];
/** Response headers the page may see. */
const FORWARDED_RESPONSE_HEADERS = [
  'content-type',
  'x-service-api-call-limit',
  'x-service-api-version',
  'x-service-api-mode',
  'x-request-id',
  'retry-after',
  'sunset',
  'deprecation',
];
/** Answers shorter than this go as they are; a page of listings shrinks about sevenfold. */
const COMPRESS_FROM_BYTES = 1024;
const gzipAsync = promisify(gzip);

const VERSIONED_PATH = /^\/\d{4}-\d{2}\/[A-Za-z0-9_./-]*$/;

/** The upstream path for a browser path, or null when it is not a versioned API path. */
export function upstreamPath(pathname: string): string | null {
  if (!pathname.startsWith(API_PREFIX)) return null;
  const rest = pathname.slice(API_PREFIX.length - 1);
  if (!VERSIONED_PATH.test(rest) || rest.includes('..') || rest.includes('//')) return null;
  return rest;
}

/**
 * Points each `Link` URL on the upstream's own origin at the proxy, sealed (see link-seal.ts): its
 * versioned path and query as the upstream wrote them, credentials taken out. Relative URLs resolve
 * against `context`, the URL the answer came from; a URL elsewhere is left as it is, not followed.
 */
export function rewriteLinkHeader(
  link: string,
  upstreamBase: string,
  proxyOrigin: string,
  context: string = upstreamBase,
): string {
  const base = new URL(upstreamBase);
  const basePath = base.pathname.replace(/\/$/, '');
  return link.replace(/<([^>]*)>/g, (whole, raw: string) => {
    let url: URL;
    try {
      url = new URL(raw.trim(), context);
    } catch {
      return whole;
    }
    if (url.origin !== base.origin) return whole;
    // With the base's path prefix or without it (a server that does not know its own prefix).
    const path = url.pathname.startsWith(`${basePath}/`)
      ? url.pathname.slice(basePath.length)
      : url.pathname;
    if (upstreamPath(`${API_PREFIX.slice(0, -1)}${path}`) === null) return whole;
    const sealed = sealLink(path, withoutCredentials(url.search));
    return `<${proxyOrigin}${API_PREFIX.slice(0, -1)}${sealed}>`;
  });
}

/**
 * The upstream URL for a browser URL, or null. A sealed `Link` goes with the upstream's own query,
 * unchanged; a query the browser wrote keeps only the parameters the spec documents for its path.
 */
export function upstreamUrlOf(incoming: URL, base: string, method = 'GET'): string | null {
  const path = upstreamPath(incoming.pathname);
  if (path === null) return null;
  const issued =
    method === 'GET' || method === 'HEAD' ? unsealedQuery(path, incoming.search) : null;
  if (issued !== null) return `${base}${path}${withoutCredentials(issued)}`;
  const query = forwardedQuery(incoming.searchParams, method, path).toString();
  return `${base}${path}${query ? `?${query}` : ''}`;
}

/**
 * The browser's call sent upstream after its turn; undefined when it went away or the upstream was
 * unreachable (the browser has had its 502).
 */
async function governedCall(
  request: IncomingMessage,
  response: ServerResponse,
  url: string,
  init: { method: string; headers: Record<string, string>; body: ArrayBuffer | undefined },
  governor: KeyGovernor | undefined,
  terms: CallTerms,
): Promise<UpstreamAnswer | undefined> {
  // A browser that goes away while its call waits for the bucket takes the call back.
  const gone = new AbortController();
  const onClose = () => {
    if (!response.writableFinished) gone.abort();
  };
  response.on('close', onClose);
  const priority = priorityOf(request.headers['x-slabdesk-priority']);
  const answer = await governedUpstreamCall(governor, priority, gone.signal, url, init, terms);
  response.off('close', onClose);
  if (answer === 'unreachable') {
    sendEnvelope(response, 502, 'upstream_unreachable', 'The API could not be reached.');
  }
  return typeof answer === 'string' ? undefined : answer;
}

/**
 * The answer's headers for the browser: forwarded ones redacted, `Link` pointed back here (its
 * relative URLs read against `url`, the upstream URL the answer came from).
 */
function answerHeaders(
  answer: UpstreamAnswer,
  upstream: Upstream,
  base: string,
  host: string,
  url: string,
): Record<string, string> {
  const out: Record<string, string> = { 'cache-control': 'no-store' };
  for (const name of FORWARDED_RESPONSE_HEADERS) {
    const value = answer.headers.get(name);
    if (value !== null) out[name] = redactText(value, upstream.apiKey);
  }
  const link = answer.headers.get('link');
  if (link !== null) {
    const pointed = rewriteLinkHeader(link, `${base}/`, `http://${host}`, url);
    out.link = redactText(pointed, upstream.apiKey);
  }
  return out;
}

/** Gzip when the browser takes it and is not on this machine (unless `gzipLoopback`). */
function gzipsFor(request: IncomingMessage, options: ProxyOptions): boolean {
  const local = fromThisMachine(request) && !options.gzipLoopback;
  return acceptsGzip(request) && !local;
}

/**
 * Forwards one browser API call upstream with the key (`X-Service-Access-Token`), after its turn in
 * the governor; Host, Origin and Sec-Fetch-Site were checked before.
 */
export async function proxyApiRequest(
  request: IncomingMessage,
  response: ServerResponse,
  upstream: Upstream,
  governor?: KeyGovernor,
  options: ProxyOptions = {},
): Promise<void> {
  const host = request.headers.host ?? '';
  const incoming = requestUrl(request.url, `http://${host}`);
  const base = upstream.baseUrl.replace(/\/$/, '');
  const method = request.method ?? 'GET';
  const url = upstreamUrlOf(incoming, base, method);
  if (url === null) {
    sendEnvelope(response, 404, 'not_found', 'Not a versioned API path.');
    return;
  }

  const headers: Record<string, string> = { 'x-service-access-token': upstream.apiKey };
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  let body: ArrayBuffer | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const read = await readBody(request);
    if (read === null) {
      sendEnvelope(
        response,
        413,
        'body_too_large',
        `The request body exceeds ${MAX_BODY_BYTES} bytes`,
        { max_bytes: MAX_BODY_BYTES },
      );
      return;
    }
    body = new Uint8Array(read).buffer;
  }

  const ping = method === 'GET' && isPing(url) ? options.pings : undefined;
  const shared = ping?.answer();
  if (shared) {
    sendBody(
      request,
      response,
      200,
      {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        'x-slabdesk-ping-age': String(shared.ageSeconds),
      },
      shared.body,
    );
    return;
  }

  const terms = callTermsOf(request, options);
  const upstreamResponse = await governedCall(
    request,
    response,
    url,
    { method, headers, body },
    governor,
    terms,
  );
  const exchange = {
    method,
    path: upstreamPath(incoming.pathname) ?? '',
    requestBody: body === undefined ? undefined : Buffer.from(body),
    bulkJobId: headerOf(request, 'x-slabdesk-bulk-job'),
    actor: options.actor ?? null,
  };
  if (!upstreamResponse) {
    // Sent and unanswered (the browser had its 502), or taken back before it was sent.
    const unanswered = { status: 0, responseHeaders: undefined, responseBody: undefined };
    if (response.headersSent) tellAnswered(options, { ...exchange, ...unanswered });
    return;
  }

  const out = answerHeaders(upstreamResponse, upstream, base, host, url);
  const answer = answerBody(upstreamResponse, upstream.apiKey, out['content-type']);
  const pack = method !== 'HEAD' && gzipsFor(request, options);
  const packed =
    pack && answer.length >= COMPRESS_FROM_BYTES
      ? await gzipAsync(answer, { level: ANSWER_GZIP_LEVEL })
      : undefined;
  sendBody(request, response, upstreamResponse.status, out, answer, packed);
  ping?.note(upstreamResponse.status, answer);
  // A refusal of the key or a wait asked for: a shared ping would say all is well when it is not.
  if (
    upstreamResponse.status === 401 ||
    upstreamResponse.status === 403 ||
    upstreamResponse.status === 429
  ) {
    options.pings?.forget();
  }
  const answered = { status: upstreamResponse.status, responseHeaders: upstreamResponse.headers };
  tellAnswered(options, { ...exchange, ...answered, responseBody: answer });
}
