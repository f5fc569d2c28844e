import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** Idle kept-alive sockets close before the upstream's own timeout (Node's 5 s, proxies longer). */
export const IDLE_SOCKET_MS = 4_000;

const pooled = { keepAlive: true, maxSockets: 16, timeout: IDLE_SOCKET_MS };
const agents = { 'http:': new HttpAgent(pooled), 'https:': new HttpsAgent(pooled) };

/** Where API calls go (`{base_url}` without the version), and the key they carry. */
export interface Upstream {
  baseUrl: string;
  apiKey: string;
}

/** How long and how much one upstream call may take: time to headers, silence, unpacked body. */
// Room for the spec's largest page on a slow link; a hung path frees its slot before a seller quits.
export const DEFAULT_UPSTREAM_LIMITS = {
  headersMs: 30_000,
  silenceMs: 30_000,
  maxBodyBytes: 32 * 1024 * 1024,
};
export type UpstreamLimits = typeof DEFAULT_UPSTREAM_LIMITS;

/**
 * A call given up: `timeout` (`limit` ms), `too_large` (`limit` bytes), `lost` before any byte,
 * `unreadable` (`limit`: the status) a status no API answer has (past 200–599, or 101).
 */
export class UpstreamError extends Error {
  constructor(
    readonly kind: 'timeout' | 'too_large' | 'lost' | 'unreadable',
    why: string,
    readonly limit = 0,
    // `lost` on a pooled kept-alive connection: the upstream may have closed it idle.
    readonly reused = false,
  ) {
    super(`The upstream call was given up: ${why}`);
    this.name = 'UpstreamError';
  }
}

export interface UpstreamAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

export type CallInit = {
  method: string;
  headers: Record<string, string>;
  body?: ArrayBuffer | undefined;
};

// Kept-alive node:http(s), not fetch (its streams cost CPU); a reset pooled socket goes again once.
/** One upstream call, no redirects, its answer unpacked, torn down past a limit. */
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
    // Safe methods go again as they are; a write only under its Idempotency-Key (the API replays it).
    const mayResend =
      ['GET', 'HEAD', 'OPTIONS'].includes(init.method.toUpperCase()) ||
      Object.entries(init.headers).some(
        ([name, value]) => name.toLowerCase() === 'idempotency-key' && value.trim() !== '',
      );
    if (!(error instanceof UpstreamError) || !error.reused || !mayResend) throw error;
    // A new connection rather than the pool's next: the upstream may have closed those too.
    return sendOnce(url, init, terms, headersBy, false);
  }
}

function sendOnce(
  url: string,
  init: CallInit,
  { headersMs, silenceMs, maxBodyBytes }: UpstreamLimits,
  headersBy: number,
  pooled: boolean,
): Promise<UpstreamAnswer> {
  const target = new URL(url);
  const https = target.protocol === 'https:';
  return new Promise((resolve, reject) => {
    // The first reason the call was torn down, reported rather than the socket's own error.
    let failure: Error | undefined;
    // Once the answer began, its body's read reports every failure.
    let answered = false;
    // More read on the socket than when we got it: the answer began, so it is never sent again.
    let socket: Socket | undefined;
    let readBefore = 0;
    const tearDown = (error: Error) => {
      failure ??= error;
      request.destroy(error);
    };
    const request = (https ? httpsRequest : httpRequest)(
      target,
      {
        method: init.method,
        headers: { 'accept-encoding': 'gzip, deflate, br', ...init.headers },
        agent: pooled ? agents[https ? 'https:' : 'http:'] : false,
      },
      (response) => {
        answered = true;
        clearTimeout(headersTimer);
        // Past the Fetch standard's range no caller (nor Fastify) can pass the answer on.
        const status = response.statusCode ?? 0;
        if (status < 200 || status > 599) {
          const error = new UpstreamError('unreadable', `status ${status}`, status);
          tearDown(error);
          reject(error);
          return;
        }
        readUpstreamBody(response, maxBodyBytes).then(
          (body) => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(response.headers)) {
              for (const one of [value ?? []].flat()) headers.append(name, one);
            }
            if (encodingOf(response) in DECODERS) {
              headers.delete('content-encoding');
              headers.delete('content-length');
            }
            resolve({ status, headers, body });
          },
          (error: unknown) => {
            const reason = failure ?? (error instanceof Error ? error : new Error(String(error)));
            tearDown(reason);
            reject(reason);
          },
        );
      },
    );
    // A switch of protocols is no answer to an API call: without this, Node keeps the call open.
    request.on('upgrade', (_response, upgraded: Socket) => {
      answered = true;
      clearTimeout(headersTimer);
      upgraded.destroy();
      reject(new UpstreamError('unreadable', 'status 101, a switch of protocols', 101));
    });
    request.on('socket', (assigned) => {
      socket = assigned;
      readBefore = assigned.bytesRead;
    });
    const headersTimer = setTimeout(
      () => tearDown(new UpstreamError('timeout', `no answer within ${headersMs} ms`, headersMs)),
      Math.max(0, headersBy - performance.now()),
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(headersTimer);
      if (answered) return;
      const lost =
        failure === undefined &&
        socket?.bytesRead === readBefore &&
        ['ECONNRESET', 'EPIPE'].includes(error.code ?? '');
      reject(
        failure ??
          (lost
            ? new UpstreamError('lost', `closed (${error.message})`, 0, request.reusedSocket)
            : error),
      );
    });
    request.setTimeout(silenceMs, () =>
      tearDown(new UpstreamError('timeout', `silent for ${silenceMs} ms`, silenceMs)),
    );
    request.end(init.body ? Buffer.from(init.body) : undefined);
  });
}

const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

const encodingOf = (response: IncomingMessage) =>
  String(response.headers['content-encoding'] ?? '').toLowerCase();

/** The body unpacked as it streams, counted after unpacking: neither a huge body nor a bomb is held. */
async function readUpstreamBody(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw new UpstreamError('too_large', `over ${maxBytes} bytes`, maxBytes);
  }
  const decoder = DECODERS[encodingOf(response)]?.();
  const chunks: Buffer[] = [];
  let total = 0;
  // Kept aside: the pipeline reports a stop from inside as an abort, not as this error.
  let tooLarge: UpstreamError | undefined;
  const collect = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      total += chunk.length;
      if (total > maxBytes)
        throw (tooLarge = new UpstreamError('too_large', `over ${maxBytes} bytes`, maxBytes));
      chunks.push(chunk);
    }
  };
  try {
    if (decoder) await pipeline(response, decoder, collect);
    else await pipeline(response, collect);
  } catch (error) {
    throw tooLarge ?? error;
  }
  return Buffer.concat(chunks, total);
}
