import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';

/** Kept-alive connections to the upstream (a walk sends one request after another). */
const agents = {
  'http:': new HttpAgent({ keepAlive: true, maxSockets: 16 }),
  'https:': new HttpsAgent({ keepAlive: true, maxSockets: 16 }),
};

/**
 * How long the upstream may stay silent before the call fails, so no call holds the governor for
 * good.
 */
const SILENCE_MS = 300_000;

const DECODERS: Record<string, (body: Buffer) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

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
 * streams are pure cost. No redirects; packed answers unpacked; silence fails the call.
 */
export function callUpstream(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: ArrayBuffer | undefined },
  silenceMs = SILENCE_MS,
): Promise<UpstreamAnswer> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const agent = target.protocol === 'https:' ? agents['https:'] : agents['http:'];
  return new Promise((resolve, reject) => {
    const request = send(
      target,
      {
        method: init.method,
        headers: { 'accept-encoding': 'gzip, deflate, br', ...init.headers },
        agent,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const body = Buffer.concat(chunks);
          const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
          const decode = DECODERS[encoding];
          const headers = toHeaders(response.headers);
          const answer = (unpacked: Buffer) => {
            if (decode) {
              headers.delete('content-encoding');
              headers.delete('content-length');
            }
            resolve({ status: response.statusCode ?? 502, headers, body: unpacked });
          };
          if (!decode) answer(body);
          else decode(body).then(answer, reject);
        });
      },
    );
    request.on('error', reject);
    request.setTimeout(silenceMs, () =>
      request.destroy(new Error(`The upstream was silent for ${silenceMs} ms`)),
    );
    request.end(init.body ? Buffer.from(init.body) : undefined);
  });
}
