import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isPacked, readUpstreamBody } from './upstream-body';

/** Kept-alive connections to the upstream (a walk sends one request after another). */
const agents = {
  'http:': new HttpAgent({ keepAlive: true, maxSockets: 16 }),
  'https:': new HttpsAgent({ keepAlive: true, maxSockets: 16 }),
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

/**
 * One upstream call over node:http(s), kept alive: the proxy reads answers whole, so `fetch`'s web
 * streams are pure cost. No redirects; packed answers unpacked; past a limit (no headers in time,
 * silence, a body over the cap) the call is torn down and rejects with UpstreamTimeoutError or
 * UpstreamTooLargeError.
 */
export function callUpstream(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: ArrayBuffer | undefined },
  limits: Partial<UpstreamLimits> = {},
): Promise<UpstreamAnswer> {
  const { headersMs, silenceMs, maxBodyBytes } = { ...DEFAULT_UPSTREAM_LIMITS, ...limits };
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const agent = target.protocol === 'https:' ? agents['https:'] : agents['http:'];
  return new Promise((resolve, reject) => {
    // The first reason the call was torn down, reported rather than the socket's own error.
    let failure: Error | undefined;
    // Once the answer has begun, its body's read reports every failure (a socket error included).
    let answered = false;
    const tearDown = (error: Error) => {
      failure ??= error;
      request.destroy(error);
    };
    const request = send(
      target,
      {
        method: init.method,
        headers: { 'accept-encoding': 'gzip, deflate, br', ...init.headers },
        agent,
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
    const headersTimer = setTimeout(
      () =>
        tearDown(
          new UpstreamTimeoutError(`The upstream sent no answer within ${headersMs} ms`, headersMs),
        ),
      headersMs,
    );
    request.on('error', (error) => {
      clearTimeout(headersTimer);
      if (!answered) reject(failure ?? error);
    });
    request.setTimeout(silenceMs, () =>
      tearDown(new UpstreamTimeoutError(`The upstream was silent for ${silenceMs} ms`, silenceMs)),
    );
    request.end(init.body ? Buffer.from(init.body) : undefined);
  });
}
