import { afterAll } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { emptyPages } from './empty-pages';

/**
 * A real Slabdesk server in front of each upstream a component test renders the app against, as
 * a browser always has one: the page's reads of the hub (`/hub/...`, the replica's change feed)
 * at the upstream's address go to the server holding that upstream's key, over HTTP. The page's
 * own API calls still go where the test points them.
 */

/** How often the test's hub reconciles with no webhook (the deployment's setting, shortened). */
const RECONCILE_MS = 300;

const hubs = new Map<string, Promise<RunningAppServer>>();
/** The key each upstream's page was rendered with (its origin → key). */
const keys = new Map<string, string>();
let installed = false;

function hubFor(origin: string, base: string, apiKey: string): Promise<RunningAppServer> {
  const name = `${origin}\n${apiKey}`;
  let hub = hubs.get(name);
  if (!hub) {
    hub = startAppServer(
      { upstream: { baseUrl: base, apiKey }, port: 0, replica: { reconcileMs: RECONCILE_MS } },
      emptyPages,
    );
    hubs.set(name, hub);
  }
  return hub;
}

/** The test's hubs close with its file. */
afterAll(async () => {
  const running = [...hubs.values()];
  hubs.clear();
  keys.clear();
  await Promise.all(running.map(async (hub) => (await hub.catch(() => undefined))?.close()));
});

/**
 * Closes the hub in front of `baseUrl`: the next page rendered there gets a new one, which fills
 * its replica from the upstream as it is now (a record degraded since is read degraded).
 */
export async function newHubInFront(baseUrl: string): Promise<void> {
  const origin = new URL(baseUrl).origin;
  // Until the next page is rendered there, a read still going from the last one (a kept copy's
  // sync outlives its page) starts no hub: one it started would be filled before the next spoil.
  keys.delete(origin);
  for (const [name, hub] of [...hubs]) {
    if (!name.startsWith(`${origin}\n`)) continue;
    hubs.delete(name);
    await (await hub.catch(() => undefined))?.close();
  }
}

/** The server a page rendered against `baseUrl` with `apiKey` talks to (started on first use). */
export function hubInFront(baseUrl: string, apiKey: string): void {
  const origin = new URL(baseUrl).origin;
  keys.set(origin, apiKey);
  if (installed) return;
  installed = true;
  const upstreamFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const apiKey = keys.get(url.origin);
    if (apiKey === undefined || !url.pathname.startsWith('/hub/')) {
      return upstreamFetch(input, init);
    }
    const hub = await hubFor(url.origin, url.origin, apiKey);
    return upstreamFetch(`${hub.url}${url.pathname}${url.search}`, init);
  };
}
