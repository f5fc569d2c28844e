import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  startAppServer,
  type AppServerOptions,
  type RunningAppServer,
} from '../../src/server/app-server';

/** An upstream API of the test's own (node:http), on a free loopback port. */
export interface FakeUpstream {
  server: Server;
  /** `http://127.0.0.1:<port>`, set once it listens. */
  url: string;
  close(): Promise<void>;
}

export async function startFakeUpstream(answer: RequestListener): Promise<FakeUpstream> {
  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The dashboard's server with `apiKey`, its API proxy pointed at `upstreamUrl`, on any port, and
 * no bundle: every page is `pageHtml`, no asset is served.
 */
export function startAppOver(
  upstreamUrl: string,
  apiKey: string,
  options: Omit<AppServerOptions, 'upstream'> = {},
  pageHtml = '<!doctype html><title>t</title>',
): Promise<RunningAppServer> {
  return startAppServer(
    // The fake upstream answers only what a test scripts: the hub's replica fills only when read,
    // and every ping is sent on (a test's pings are its probes of the upstream).
    {
      upstream: { baseUrl: upstreamUrl, apiKey },
      port: 0,
      replica: { fill: 'when-read' },
      ...options,
      proxy: { pings: null, ...options.proxy },
    },
    async () => ({
      development: false,
      register: async () => {},
      pageHtml: async () => pageHtml,
    }),
  );
}
