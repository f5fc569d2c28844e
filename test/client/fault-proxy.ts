import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with one request. */
export type Fault =
  /** Forward and answer normally. */
  | 'pass'
  /** Forward, let the sandbox answer completely, then drop the client's connection. */
  | 'drop_after'
  /** Forward, let the sandbox answer, then never answer the client (it times out). */
  | 'stall_after'
  /** Drop the connection without forwarding. */
  | 'drop_before'
  /** Forward (the sandbox acts), then answer the client 500 instead of the real answer. */
  | 'error_after'
  /** Answer 500 internal_error without forwarding. */
  | 'error_500'
  /** Answer 429 rate_limited with Retry-After without forwarding. */
  | 'rate_limited'
  /** Answer 429 rate_limited with no Retry-After header, without forwarding. */
  | 'rate_limited_bare'
  /** Answer 409 idempotency_request_in_flight with Retry-After without forwarding. */
  | 'in_flight'
  /** Answer 503 (cert_lookup_unavailable for POST, partner_api_writes_disabled else) without forwarding. */
  | 'unavailable';

export interface ProxyRequestInfo {
  method: string;
  url: string;
  index: number;
  idempotencyKey: string | undefined;
  token: string | undefined;
}

export interface FaultProxy {
  url: string;
  /** Every request the proxy saw, in order, with the fault it applied. */
  log: (ProxyRequestInfo & { fault: Fault })[];
  close(): Promise<void>;
}

export interface FaultProxyOptions {
  /** Chooses the fault for each request (default: always pass). */
  decide?: (info: ProxyRequestInfo) => Fault;
  /** Rewrites each response body (JSON text) before it reaches the client. */
  rewriteBody?: (body: string, info: ProxyRequestInfo) => string;
  /**
   * Link URLs on the target's origin name this proxy's instead, as a gateway that knows its own
   * address writes them (before `rewriteLink`).
   */
  linksOnOwnOrigin?: boolean;
  /** Rewrites the Link header (e.g. to relative URLs). */
  rewriteLink?: (link: string) => string;
  /** Seconds sent in Retry-After by injected 429s and 503s (default 1). */
  retryAfter?: number;
  /** Milliseconds to hold each request before acting on it (a slow upstream; default 0). */
  delayMs?: (info: ProxyRequestInfo) => number;
}

function envelope(code: string, message: string) {
  return JSON.stringify({ errors: message, svc_error: { code, request_id: 'req_proxy' } });
}

/** An HTTP proxy of the test's own that sits between the client and the sandbox and injects faults. */
export async function startFaultProxy(
  target: string,
  options: FaultProxyOptions = {},
): Promise<FaultProxy> {
  const upstream = new URL(target);
  const log: FaultProxy['log'] = [];
  let index = 0;
  let ownOrigin = '';
  const retryAfter = String(options.retryAfter ?? 1);

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const info: ProxyRequestInfo = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        index: index++,
        idempotencyKey: header(req, 'idempotency-key'),
        token: header(req, 'x-service-access-token'),
      };
      const fault = options.decide?.(info) ?? 'pass';
      log.push({ ...info, fault });
      const delay = options.delayMs?.(info) ?? 0;
      if (delay > 0) setTimeout(act, delay);
      else act();
      function act() {
        const json = { 'content-type': 'application/json' };
        switch (fault) {
          case 'drop_before':
            req.socket.destroy();
            return;
          case 'error_500':
            res.writeHead(500, json).end(envelope('internal_error', 'Internal error'));
            return;
          case 'rate_limited':
            res
              .writeHead(429, { ...json, 'retry-after': retryAfter })
              .end(envelope('rate_limited', 'Exceeded the API call limit'));
            return;
          case 'rate_limited_bare':
            res.writeHead(429, json).end(envelope('rate_limited', 'Exceeded the API call limit'));
            return;
          case 'in_flight':
            res
              .writeHead(409, { ...json, 'retry-after': retryAfter })
              .end(envelope('idempotency_request_in_flight', 'A request with this key is running'));
            return;
          case 'unavailable': {
            const code =
              info.method === 'POST' ? 'cert_lookup_unavailable' : 'partner_api_writes_disabled';
            res.writeHead(503, { ...json, 'retry-after': retryAfter }).end(envelope(code, code));
            return;
          }
          default:
            break;
        }
        const forward = httpRequest(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, host: upstream.host },
          },
          (upstreamRes: IncomingMessage) => {
            const body: Buffer[] = [];
            upstreamRes.on('data', (chunk: Buffer) => body.push(chunk));
            upstreamRes.on('end', () => {
              if (fault === 'stall_after') return;
              if (fault === 'drop_after') {
                req.socket.destroy();
                return;
              }
              if (fault === 'error_after') {
                res.writeHead(500, json).end(envelope('internal_error', 'Internal error'));
                return;
              }
              let text = Buffer.concat(body).toString('utf8');
              if (options.rewriteBody) text = options.rewriteBody(text, info);
              const headers = { ...upstreamRes.headers };
              delete headers['content-length'];
              delete headers['transfer-encoding'];
              delete headers.connection;
              if (typeof headers.link === 'string' && options.linksOnOwnOrigin) {
                headers.link = headers.link.replaceAll(`<${upstream.origin}/`, `<${ownOrigin}/`);
              }
              if (typeof headers.link === 'string' && options.rewriteLink) {
                headers.link = options.rewriteLink(headers.link);
              }
              res.writeHead(upstreamRes.statusCode ?? 502, headers).end(text);
            });
          },
        );
        forward.on('error', () => req.socket.destroy());
        forward.end(Buffer.concat(chunks));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  ownOrigin = `http://127.0.0.1:${port}`;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
