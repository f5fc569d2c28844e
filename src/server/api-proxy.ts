import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_BODY_BYTES } from '../shared/spec-limits';
import type { Actor } from './auth/roles';
import { refuse } from './error-envelope';
import { governedUpstreamCall } from './governed-call';
import { priorityOf, type KeyGovernor } from './governor/key-governor';
import { compressByCall } from './compress-reply';
import { answerBody, redactText } from './key-redaction';
import { serverLog } from './log';
import { isPing, type PingShare } from './ping-share';
import { rewriteLinkHeader, upstreamPath, upstreamUrlOf } from './proxy-url';
import { requestUrl } from './request-url';
import type { Upstream, UpstreamLimits } from './upstream-call';

export type { Upstream } from './upstream-call';

export interface ProxyOptions {
  /** The last ping answered, given again (null: every ping asks, for tests that count them). */
  pings?: PingShare | null | undefined;
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
  /** Who made the call; null: sign-in is off ("This computer"). */
  actor: Actor | null;
}

// The API's deletions take listings off sale (and webhooks off the seller's account).
const PROXIED = [
  { method: ['GET', 'HEAD'], access: 'viewer' },
  { method: ['POST', 'PUT', 'PATCH'], access: 'editor' },
  { method: ['DELETE'], access: 'owner', action: 'deactivate listings' },
] as const;

const TAB_ID = /^[A-Za-z0-9_-]{1,64}$/;

// The API's answers are data: a page an upstream sends as one runs nothing under our origin.
const DATA_ONLY = "default-src 'none'; sandbox";

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

/** `/api/*`: the API through the key, its turn from the governor, the body forwarded as bytes. */
export async function apiProxyRoutes(
  app: FastifyInstance,
  deps: { upstream: Upstream; governor: KeyGovernor | undefined; proxy: ProxyOptions },
) {
  await compressByCall(app);
  // Any content type, as sent; past the spec's bound Fastify answers 413 `body_too_large`.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const { governor, proxy: options } = deps;
  const [base, key] = [deps.upstream.baseUrl.replace(/\/$/, ''), deps.upstream.apiKey];
  for (const url of ['/api', '/api/*']) {
    for (const { method, ...config } of PROXIED) {
      app.route({ method: [...method], url, config, bodyLimit: MAX_BODY_BYTES, handler });
    }
  }

  /** One browser API call upstream with the key, after its turn (Host and Origin checked before). */
  async function handler(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    // The path goes as sent: a spelling that only decodes into `/api/...` is not a versioned API path.
    const host = request.headers.host ?? '';
    const incoming = requestUrl(request.url, `http://${host}`);
    const { method } = request;
    const url = upstreamUrlOf(incoming, base, method);
    if (url === null) return refuse(reply, 404, 'not_found', 'Not a versioned API path.');
    reply
      .header('cache-control', 'no-store')
      .header('vary', 'accept-encoding')
      .header('content-security-policy', DATA_ONLY);

    const headers: Record<string, string> = { 'x-service-access-token': key };
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    // Whole and within the spec's bound (the route's bodyLimit), as bytes from the catch-all parser.
    const body = Buffer.isBuffer(request.body) ? request.body : undefined;

    const ping = method === 'GET' && isPing(url) ? options.pings : undefined;
    const shared = ping?.answer();
    if (shared) {
      reply
        .type('application/json; charset=utf-8')
        .header('x-slabdesk-ping-age', shared.ageSeconds);
      return reply.send(shared.body);
    }

    // A browser that goes away while its call waits for the bucket takes the call back.
    const gone = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) gone.abort();
    };
    reply.raw.on('close', onClose);
    const priority = priorityOf(request.headers['x-slabdesk-priority']);
    const init = { method, headers, body: body && new Uint8Array(body).buffer };
    // A flood waits behind its own calls: the share is the session, else the person, else the
    // address; the page's tab id only divides its share.
    const { actor, session } = request.admission;
    const tab = request.headers['x-slabdesk-tab'];
    const terms = {
      share: session
        ? `session:${session.idHash}`
        : actor
          ? `user:${actor.name}`
          : `address:${request.socket.remoteAddress ?? 'unknown'}`,
      tab: typeof tab === 'string' && TAB_ID.test(tab) ? tab : '',
      limits: options.upstreamLimits,
    };
    const called = await governedUpstreamCall(governor, priority, gone.signal, url, init, terms);
    reply.raw.off('close', onClose);
    const bulkJob = request.headers['x-slabdesk-bulk-job'];
    const exchange = {
      method,
      path: upstreamPath(incoming.pathname) ?? '',
      requestBody: body,
      bulkJobId: typeof bulkJob === 'string' ? bulkJob : undefined,
      actor: actor ?? null,
    };
    // Taken back before it was sent: the browser left, nothing to answer.
    if (called === 'gone') return reply.hijack();
    let answered: Pick<ProxiedExchange, 'status' | 'responseHeaders' | 'responseBody'>;
    if (called === 'unreachable') {
      refuse(reply, 502, 'upstream_unreachable', 'The API could not be reached.');
      answered = { status: 0, responseHeaders: undefined, responseBody: undefined };
    } else {
      // The answer's headers for the browser: redacted, `Link` pointed back here.
      for (const name of FORWARDED_RESPONSE_HEADERS) {
        const value = called.headers.get(name);
        if (value !== null) reply.header(name, redactText(value, key));
      }
      const link = called.headers.get('link');
      if (link !== null) {
        const here = rewriteLinkHeader(link, `${base}/`, `http://${host}`, url);
        reply.header('link', redactText(here, key));
      }
      const answer = answerBody(called, key, called.headers.get('content-type') ?? '');
      reply.code(called.status);
      reply.compress(answer);
      ping?.note(called.status, answer);
      // A refusal of the key or a wait asked for: a shared ping would say all is well when it is not.
      if ([401, 403, 429].includes(called.status)) options.pings?.forget();
      answered = { status: called.status, responseHeaders: called.headers, responseBody: answer };
    }
    try {
      options.onAnswered?.({ ...exchange, ...answered });
    } catch (error) {
      serverLog.error({ err: error }, 'The activity log could not take a call');
    }
    return reply;
  }
}
