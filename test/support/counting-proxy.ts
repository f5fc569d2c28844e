import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A pass-through HTTP proxy in front of the sandbox that counts each status it answered. */
export interface CountingProxy {
  url: string;
  statuses: Map<number, number>;
  /** `METHOD path` of every request, in the order it reached the proxy. */
  log: string[];
  count(status: number): number;
  close(): Promise<void>;
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  const statuses = new Map<number, number>();
  const log: string[] = [];
  const server = createServer((req, res) => {
    log.push(`${req.method ?? 'GET'} ${req.url ?? '/'}`);
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        const status = answer.statusCode ?? 0;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        res.writeHead(status, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    statuses,
    log,
    count: (status) => statuses.get(status) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
