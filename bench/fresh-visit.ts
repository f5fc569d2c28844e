import { DEMO_LIVE_TOKEN, DEMO_SELLER_ID, startSandbox } from '../src/sandbox';
import type { ProxyOptions } from '../src/server/api-proxy';
import { startAppServer, type RunningAppServer } from '../src/server/app-server';
import { distPages } from '../src/server/dist-pages';

/**
 * A seller's first visit: a fresh live key of the demo seller (an empty bucket) with the given
 * scopes, behind its own dashboard server serving the built bundle in `outDir`.
 */
export async function freshVisitServer(
  sandboxUrl: string,
  outDir: string,
  scopes: readonly string[],
): Promise<RunningAppServer> {
  const response = await fetch(`${sandboxUrl}/_sandbox/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seller_id: DEMO_SELLER_ID, mode: 'live', scopes }),
  });
  const { key } = (await response.json()) as { key: { token: string } };
  return startAppServer(
    { upstream: { baseUrl: sandboxUrl, apiKey: key.token }, port: 0 },
    async () => distPages(outDir),
  );
}

/**
 * The demo sandbox behind a dashboard server with the demo's live key, serving `outDir`.
 * `proxy`: how its API proxy answers (see ProxyOptions).
 */
export async function demoDashboard(
  outDir: string,
  proxy?: ProxyOptions,
): Promise<{ url: string; close(): Promise<void> }> {
  const sandbox = await startSandbox({ port: 0, db: ':memory:', seed: 'demo' });
  const app = await startAppServer(
    {
      upstream: { baseUrl: sandbox.url, apiKey: DEMO_LIVE_TOKEN },
      port: 0,
      ...(proxy ? { proxy } : {}),
    },
    async () => distPages(outDir),
  );
  return {
    url: app.url,
    async close() {
      await app.close();
      await sandbox.close();
    },
  };
}
