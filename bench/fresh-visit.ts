import { DEMO_SELLER_ID } from '../src/sandbox';
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
