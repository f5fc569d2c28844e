import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEMO_LIVE_TOKEN, DEMO_SELLER_ID, startSandbox } from '../src/sandbox';
import type { ProxyOptions } from '../src/server/api-proxy';
import { startAppServer, type RunningAppServer } from '../src/server/app-server';
import { distPages } from '../src/server/dist-pages';

type SandboxModule = { startSandbox: typeof startSandbox };
type AppServerModule = { startAppServer: typeof startAppServer };
type DistPagesModule = { distPages: typeof distPages };

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
 * `proxy`: how its API proxy answers (see ProxyOptions); `activity`: its log (and show ledger) file;
 * `root`: another checkout whose sandbox and server run instead (a base measured beside this one).
 */
export async function demoDashboard(
  outDir: string,
  {
    proxy,
    activity,
    root,
  }: { proxy?: ProxyOptions; activity?: { path: string }; root?: string } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const code = root ? await checkoutCode(root) : { startSandbox, startAppServer, distPages };
  const sandbox = await code.startSandbox({ port: 0, db: ':memory:', seed: 'demo' });
  const app = await code.startAppServer(
    {
      upstream: { baseUrl: sandbox.url, apiKey: DEMO_LIVE_TOKEN },
      port: 0,
      ...(proxy ? { proxy } : {}),
      ...(activity ? { activity } : {}),
    },
    async () => code.distPages(outDir),
  );
  return {
    url: app.url,
    async close() {
      await app.close();
      await sandbox.close();
    },
  };
}

/** The sandbox and server of another checkout, by the same names (their shapes are kept). */
async function checkoutCode(root: string) {
  const at = (path: string) => pathToFileURL(resolve(root, path)).href;
  const sandbox = (await import(at('src/sandbox/index.ts'))) as SandboxModule;
  const server = (await import(at('src/server/app-server.ts'))) as AppServerModule;
  const pages = (await import(at('src/server/dist-pages.ts'))) as DistPagesModule;
  return {
    startSandbox: sandbox.startSandbox,
    startAppServer: server.startAppServer,
    distPages: pages.distPages,
  };
}
