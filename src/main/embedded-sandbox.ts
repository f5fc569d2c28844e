import { randomBytes } from 'node:crypto';
import * as sandbox from '../sandbox/index';
import type { Settings } from '../server/config/settings';
import type { ResolvedUpstream } from '../server/run-server';

/** The sandbox of `npm run dev` (and `npm start` without `SVC_BASE_URL`), its demo seed and key. */
export async function startEmbeddedSandbox(
  settings: Settings,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ResolvedUpstream> {
  const db = settings.SLABDESK_SANDBOX_DB ?? '.sandbox/dev.db';
  // The sandbox's own SANDBOX_* settings apply (rate limit, demo size, simulation...), but the
  // embedded one always binds loopback on a free port, with its own store and the demo seed.
  // Its control API (reset, keys) is closed with SANDBOX_CONTROL_TOKEN, or a token of this run.
  const options = sandbox.optionsFromEnv(env);
  const chosenToken = options.controlToken;
  const controlToken = chosenToken ?? randomBytes(24).toString('base64url');
  const running = await sandbox.startSandbox({
    ...options,
    host: '127.0.0.1',
    port: 0,
    db,
    seed: 'demo',
    controlToken,
    // The hub beside it keeps photos for new listings on this machine, over plain http.
    loopbackImages: true,
  });
  const apiKey =
    settings.SVC_API_KEY ??
    (settings.SLABDESK_DEMO_MODE === 'test' ? sandbox.DEMO_TEST_TOKEN : sandbox.DEMO_LIVE_TOKEN);
  return {
    baseUrl: running.url,
    apiKey,
    // A token made for this run is shown (this terminal is the seller's own), so the README's
    // reset with curl still works; one chosen in SANDBOX_CONTROL_TOKEN is known already.
    description: `embedded sandbox at ${running.url} (${db}; control API token: ${chosenToken ? 'SANDBOX_CONTROL_TOKEN' : controlToken})`,
    embedded: { sandboxUrl: running.url, sellerId: sandbox.DEMO_SELLER_ID, controlToken },
    close: () => running.close(),
  };
}
