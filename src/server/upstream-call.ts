import {
  Agent as HttpAgent,
  request as httpRequest,
  type ClientRequest,
  type IncomingHttpHeaders,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { isPacked, readUpstreamBody } from './upstream-body';

/**
 * How long a kept-alive connection may sit idle in the pool before we close it ourselves: under
 * the shortest idle timeout common in front of an API (Node's 5 s, nginx and load balancers
 * longer), so we drop an idle connection before the upstream does.
 */
export const IDLE_SOCKET_MS = 4_000;

/** Kept-alive connections to the upstream (a walk sends one request after another). */
const agents = {
  'http:': new HttpAgent({ keepAlive: true, maxSockets: 16, timeout: IDLE_SOCKET_MS }),
  'https:': new HttpsAgent({ keepAlive: true, maxSockets: 16, timeout: IDLE_SOCKET_MS }),
};

/** How long and how much one upstream call may take, so no call holds the governor or memory. */
export interface UpstreamLimits {
  /** From sending the request to the answer's status and headers. */
  headersMs: number;
  /** The longest silence of the connection at any point of the call. */
  silenceMs: number;
  /** The most bytes of an answer's body, counted after unpacking. */
  maxBodyBytes: number;
}

/**
 * Generous for a page of the spec's largest size on a slow link, tight enough that a hung path
 * frees its slot well before a seller gives up on the tab.
 */
export const DEFAULT_UPSTREAM_LIMITS: UpstreamLimits = {
  headersMs: 30_000,
  silenceMs: 30_000,
  maxBodyBytes: 32 * 1024 * 1024,
};

/** Thrown when the upstream did not answer (or fell silent) within the call's limits. */
export class UpstreamTimeoutError extends Error {
  constructor(
    message: string,
    readonly afterMs: number,
  ) {
    super(message);
    this.name = 'UpstreamTimeoutError';
  }
}

/**
 * Thrown when the connection was reset or closed before any byte of the answer came back, so the
 * upstream may or may not have acted on the request. `reused`: it was a kept-alive connection
 * from the pool, which the upstream may have closed while idle just as the request went out.
 */
export class UpstreamConnectionLostError extends Error {
  constructor(
    cause: Error,
    readonly reused: boolean,
  ) {
    super(`The upstream closed the connection before answering (${cause.message})`, { cause });
    this.name = 'UpstreamConnectionLostError';
  }
}

/** The socket errors of a connection the other end closed or reset. */
const CONNECTION_LOST_CODES = new Set(['ECONNRESET', 'EPIPE']);

/**
 * Methods that change nothing (RFC 9110 section 9.2.1), sent again as they are. The API's writes
 * (POST, PUT, DELETE: each may fire a webhook, a PUT changes only the fields sent) are sent again
 * only under their `Idempotency-Key`, which the API answers with the first outcome.
 */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function mayResend(init: { method: string; headers: Record<string, string> }): boolean {
  if (SAFE_METHODS.has(init.method.toUpperCase())) return true;
  return Object.entries(init.headers).some(
    ([name, value]) => name.toLowerCase() === 'idempotency-key' && value.trim() !== '',
  );
}

/** An upstream answer, its body read whole (and unpacked when the upstream packed it). */
export interface UpstreamAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

function toHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

type CallInit = { method: string; headers: Record<string, string>; body?: ArrayBuffer | undefined };

/**
 * One upstream call over node:http(s), kept alive: the proxy reads answers whole, so `fetch`'s web
 * streams are pure cost. No redirects; packed answers unpacked; past a limit (no headers in time,
 * silence, a body over the cap) the call is torn down and rejects with UpstreamTimeoutError or
 * UpstreamTooLargeError. A kept-alive connection the upstream closed while idle is no error: a
 * request whose reused connection is reset before any byte of the answer is sent again once, on a
 * new connection, when it may be (a safe method, or a write with its `Idempotency-Key`); else it
 * rejects with UpstreamConnectionLostError. The headers deadline covers both tries.
 */
export async function callUpstream(
  url: string,
  init: CallInit,
  limits: Partial<UpstreamLimits> = {},
): Promise<UpstreamAnswer> {
  const terms = { ...DEFAULT_UPSTREAM_LIMITS, ...limits };
  const headersBy = performance.now() + terms.headersMs;
  try {
    return await sendOnce(url, init, terms, headersBy, true);
  } catch (error) {
    if (!(error instanceof UpstreamConnectionLostError) || !error.reused || !mayResend(init)) {
      throw error;
    }
    // A new connection rather than the pool's next: the upstream may have closed those too.
    return sendOnce(url, init, terms, headersBy, false);
  }
}

/** One try of a call: on the pool's kept-alive connections (`pooled`) or a new one of its own. */
function sendOnce(
  url: string,
  init: CallInit,
  { headersMs, silenceMs, maxBodyBytes }: UpstreamLimits,
  headersBy: number,
  pooled: boolean,
): Promise<UpstreamAnswer> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const agent = target.protocol === 'https:' ? agents['https:'] : agents['http:'];
  return new Promise((resolve, reject) => {
    // The first reason the call was torn down, reported rather than the socket's own error.
    let failure: Error | undefined;
    // Once the answer has begun, its body's read reports every failure (a socket error included).
    let answered = false;
    // The connection and how much it had read when this request got it: more read means the
    // answer had begun, and a request the upstream began answering is never sent again.
    let socket: Socket | undefined;
    let readBefore = 0;
    const tearDown = (error: Error) => {
      failure ??= error;
      request.destroy(error);
    };
    const request: ClientRequest = send(
      target,
      {
        method: init.method,
        headers: { 'accept-encoding': 'gzip, deflate, br', ...init.headers },
        agent: pooled ? agent : false,
      },
      (response) => {
        answered = true;
        clearTimeout(headersTimer);
        readUpstreamBody(response, maxBodyBytes).then(
          (body) => {
            const headers = toHeaders(response.headers);
            if (isPacked(response)) {
              headers.delete('content-encoding');
              headers.delete('content-length');
            }
            resolve({ status: response.statusCode ?? 502, headers, body });
          },
          (error: unknown) => {
            const reason = failure ?? (error instanceof Error ? error : new Error(String(error)));
            tearDown(reason);
            reject(reason);
          },
        );
      },
    );
    request.on('socket', (assigned) => {
      socket = assigned;
      readBefore = assigned.bytesRead;
    });
    const headersTimer = setTimeout(
      () =>
        tearDown(
          new UpstreamTimeoutError(`The upstream sent no answer within ${headersMs} ms`, headersMs),
        ),
      Math.max(0, headersBy - performance.now()),
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(headersTimer);
      if (answered) return;
      const lost =
        failure === undefined &&
        socket !== undefined &&
        socket.bytesRead === readBefore &&
        CONNECTION_LOST_CODES.has(error.code ?? '');
      reject(
        failure ?? (lost ? new UpstreamConnectionLostError(error, request.reusedSocket) : error),
      );
    });
    request.setTimeout(silenceMs, () =>
      tearDown(new UpstreamTimeoutError(`The upstream was silent for ${silenceMs} ms`, silenceMs)),
    );
    request.end(init.body ? Buffer.from(init.body) : undefined);
  });
}
