import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProxyOptions } from '../../src/server/api-proxy';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { startFaultProxy, type FaultProxy, type FaultProxyOptions } from '../client/fault-proxy';

export interface AppOverLog {
  /** The dashboard's server, serving a bare page, its API proxy pointed at `upstreamLog`. */
  app: RunningAppServer;
  /** A logging proxy in front of the real upstream: every call that actually went upstream. */
  upstreamLog: FaultProxy;
  close(): Promise<void>;
}

/**
 * The dashboard's server with `apiKey`, its upstream a logging (or faulting, per `options`) proxy
 * in front of `upstreamUrl`: what the tests of the proxy look through.
 */
export async function startAppOverLog(
  upstreamUrl: string,
  apiKey: string,
  options: FaultProxyOptions = {},
  proxy?: ProxyOptions,
): Promise<AppOverLog> {
  // The dashboard's server follows only links on its upstream's origin: this one's.
  const upstreamLog = await startFaultProxy(upstreamUrl, { linksOnOwnOrigin: true, ...options });
  const dist = mkdtempSync(join(tmpdir(), 'slabdesk-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>t</title><div id="root"></div>');
  const app = await startAppServer(
    {
      upstream: { baseUrl: upstreamLog.url, apiKey },
      port: 0,
      // The upstream's log counts the proxy's calls: the hub's replica fills only when read, and
      // every ping is sent on.
      replica: { fill: 'when-read' },
      proxy: { pings: null, ...proxy },
    },
    async () => distPages(dist),
  );
  return {
    app,
    upstreamLog,
    async close() {
      await app.close();
      await upstreamLog.close();
    },
  };
}
