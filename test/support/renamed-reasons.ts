import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An upstream in front of a real sandbox whose inventory levels speak codes we never saw. */
export interface RenamedReasons {
  url: string;
  /** The renamed code of a sandbox code (`shipped` → `x_shipped`). */
  renamed(code: string): string;
  close(): Promise<void>;
}

const renamed = (code: string) => `x_${code}`;

/**
 * Forwards every call to `target` (a sandbox's root) as it is, except the inventory levels'
 * answers, whose every `svc_unavailable_reason` (and `unavailable_reason`, should one appear) is
 * renamed to a made-up code: the spec does not show the full set, so a server may use any. The
 * `Link` header is pointed back at this upstream so walks stay on it.
 */
export async function startRenamedReasons(target: string): Promise<RenamedReasons> {
  const upstream = new URL(target);
  let base = '';
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const levels = /\/inventory_levels(\.json)?(\?|$)/.test(path);
    const headers = { ...req.headers, host: upstream.host };
    // The body is rewritten: asked for as it is, not compressed.
    if (levels) headers['accept-encoding'] = 'identity';
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path, method: req.method, headers },
      (answer) => {
        const out = { ...answer.headers };
        if (typeof out.link === 'string') out.link = out.link.split(target).join(base);
        if (!levels || answer.statusCode !== 200) {
          res.writeHead(answer.statusCode ?? 502, out);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            inventory_levels?: Record<string, unknown>[];
          };
          for (const level of body.inventory_levels ?? []) {
            for (const key of ['svc_unavailable_reason', 'unavailable_reason']) {
              const code = level[key];
              if (typeof code === 'string') level[key] = renamed(code);
            }
          }
          const text = JSON.stringify(body);
          delete out['content-length'];
          delete out['transfer-encoding'];
          res.writeHead(200, { ...out, 'content-length': Buffer.byteLength(text) }).end(text);
        });
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    renamed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
