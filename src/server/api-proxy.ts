import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { MAX_BODY_BYTES } from '../shared/spec-limits';
import type { Actor } from './auth/roles';
import { sendEnvelope } from './error-envelope';
import { callTermsOf, governedUpstreamCall } from './governed-call';
import { priorityOf, type KeyGovernor } from './governor/key-governor';
import { acceptsGzip, ANSWER_GZIP_LEVEL, fromThisMachine } from './gzip-reply';
import { answerBody, redactText } from './key-redaction';
import { serverLog } from './log';
import { isPing, type PingShare } from './ping-share';
import { rewriteLinkHeader, upstreamPath, upstreamUrlOf } from './proxy-url';
import { readBody } from './read-body';
import { requestUrl } from './request-url';
import type { Upstream, UpstreamLimits } from './upstream-call';

export type { Upstream } from './upstream-call';

export interface ProxyOptions {
  /** Gzip for a browser on this machine too (over loopback packing only costs CPU). */
  gzipLoopback?: boolean;
  /** The last ping answered, given again (null: every ping asks, for tests that count them). */
  pings?: PingShare | null | undefined;
  /** Who made the call; unset: sign-in is off ("This computer"). */
  actor?: Actor | null;
  /** The caller's session hash: its calls take turns with other sessions' in the governor. */
  session?: string | undefined;
  upstreamLimits?: Partial<UpstreamLimits> | undefined;
  /** Told every answered call after its answer was sent; never allowed to break or delay it. */
  onAnswered?: ((exchange: ProxiedExchange) => void) | undefined;
}

/** One call the proxy answered (`status` 0: unreachable; `responseBody` as the browser got it). */
export interface ProxiedExchange {
  method: string;
  /** The upstream path, e.g. `/2026-07/listings/12.json`. */
  path: string;
  requestBody: Buffer | undefined;
  /** `X-Slabdesk-Bulk-Job`: the bulk job a write belongs to. */
  bulkJobId: string | undefined;
  status: number;
  responseHeaders: Headers | undefined;
  responseBody: Buffer | undefined;
  actor: Actor | null;
}

// Credentials, cookies and our priority header stay here.
const FORWARDED_REQUEST_HEADERS = ['accept', 'content-type', 'idempotency-key'];
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
// Shorter answers go as they are; a page of listings shrinks about sevenfold.
const COMPRESS_FROM_BYTES = 1024;
const gzipAsync = promisify(gzip);

/** Sends a whole body, packed when `pack` (the browser takes gzip; `packed` makes it). */
async function sendBody(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders,
  body: Buffer,
  pack = false,
): Promise<void> {
  const gzip = pack && request.method !== 'HEAD' && body.length >= COMPRESS_FROM_BYTES;
  const sent = gzip ? await gzipAsync(body, { level: ANSWER_GZIP_LEVEL }) : body;
  // A proxied HEAD has no body to measure: its length is not claimed.
  const measured = sent.length > 0 || request.method !== 'HEAD';
  response.writeHead(status, {
    ...headers,
    ...(measured ? { 'content-length': sent.length } : {}),
    vary: 'Accept-Encoding',
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
  });
  response.end(request.method === 'HEAD' ? undefined : sent);
}

/** One browser API call upstream with the key, after its turn (Host and Origin checked before). */
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
  const key = upstream.apiKey;
  const url = upstreamUrlOf(incoming, base, method);
  if (url === null) return sendEnvelope(response, 404, 'not_found', 'Not a versioned API path.');

  const headers: Record<string, string> = { 'x-service-access-token': key };
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  let body: Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const read = await readBody(request);
    if (read === null) {
      const message = `The request body exceeds ${MAX_BODY_BYTES} bytes`;
      return sendEnvelope(response, 413, 'body_too_large', message, { max_bytes: MAX_BODY_BYTES });
    }
    body = read;
  }

  const ping = method === 'GET' && isPing(url) ? options.pings : undefined;
  const shared = ping?.answer();
  if (shared) {
    const pingHeaders = {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-slabdesk-ping-age': String(shared.ageSeconds),
    };
    return sendBody(request, response, 200, pingHeaders, shared.body);
  }

  // A browser that goes away while its call waits for the bucket takes the call back.
  const gone = new AbortController();
  const onClose = () => {
    if (!response.writableFinished) gone.abort();
  };
  response.on('close', onClose);
  const priority = priorityOf(request.headers['x-slabdesk-priority']);
  const init = { method, headers, body: body && new Uint8Array(body).buffer };
  const terms = callTermsOf(request, options);
  const called = await governedUpstreamCall(governor, priority, gone.signal, url, init, terms);
  response.off('close', onClose);
  if (called === 'unreachable') {
    sendEnvelope(response, 502, 'upstream_unreachable', 'The API could not be reached.');
  }
  const bulkJob = request.headers['x-slabdesk-bulk-job'];
  const exchange = {
    method,
    path: upstreamPath(incoming.pathname) ?? '',
    requestBody: body,
    bulkJobId: typeof bulkJob === 'string' ? bulkJob : undefined,
    actor: options.actor ?? null,
  };
  const tellAnswered = (answered: Omit<ProxiedExchange, keyof typeof exchange>) => {
    try {
      options.onAnswered?.({ ...exchange, ...answered });
    } catch (error) {
      serverLog.error({ err: error }, 'The activity log could not take a call');
    }
  };
  if (typeof called === 'string') {
    // Sent and unanswered (the browser had its 502), or taken back before it was sent.
    const unanswered = { status: 0, responseHeaders: undefined, responseBody: undefined };
    if (response.headersSent) tellAnswered(unanswered);
    return;
  }

  // The answer's headers for the browser: redacted, `Link` pointed back here.
  const out: Record<string, string> = { 'cache-control': 'no-store' };
  for (const name of FORWARDED_RESPONSE_HEADERS) {
    const value = called.headers.get(name);
    if (value !== null) out[name] = redactText(value, key);
  }
  const link = called.headers.get('link');
  if (link !== null) {
    out.link = redactText(rewriteLinkHeader(link, `${base}/`, `http://${host}`, url), key);
  }
  const answer = answerBody(called, key, out['content-type']);
  const local = fromThisMachine(request) && !options.gzipLoopback;
  await sendBody(request, response, called.status, out, answer, acceptsGzip(request) && !local);
  ping?.note(called.status, answer);
  // A refusal of the key or a wait asked for: a shared ping would say all is well when it is not.
  if ([401, 403, 429].includes(called.status)) options.pings?.forget();
  tellAnswered({ status: called.status, responseHeaders: called.headers, responseBody: answer });
}
