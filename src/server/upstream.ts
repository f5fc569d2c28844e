import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import type { Upstream } from './api-proxy';
import type { HubOptions } from './hub/server-hub';
import type { Settings } from './config/settings';
import { privateFolder } from './private-files';

export interface ResolvedUpstream extends Upstream {
  /** What to print: the embedded sandbox or the configured deployment. */
  description: string;
  /** The embedded sandbox's URL, demo seller and control token. */
  embedded?: { sandboxUrl: string; sellerId: string; controlToken: string };
  close(): Promise<void>;
}

/**
 * The API: `SVC_BASE_URL` with `SVC_API_KEY`, or the embedded sandbox on a free port with the demo
 * live key (`SLABDESK_DEMO_MODE=test`: the test key).
 */
export async function resolveUpstream(
  settings: Settings,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ResolvedUpstream> {
  const baseUrl = settings.SVC_BASE_URL;
  if (baseUrl) {
    const apiKey = settings.SVC_API_KEY;
    if (!apiKey) throw new Error('SVC_BASE_URL is set but SVC_API_KEY is not.');
    const parsed = new URL(baseUrl);
    return {
      baseUrl: parsed.href.replace(/\/$/, ''),
      apiKey,
      description: `${parsed.origin}${parsed.pathname.replace(/\/$/, '')} (SVC_BASE_URL)`,
      close: async () => {},
    };
  }
  const sandbox = await import('../sandbox/index');
  const db = settings.SLABDESK_SANDBOX_DB ?? '.sandbox/dev.db';
  if (db !== ':memory:') privateFolder(dirname(db));
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

/**
 * The hub's settings: the endpoint's signing secrets (current and previous), where event ids are
 * kept (`SLABDESK_HUB_DB`), and the embedded sandbox's registration.
 */
export function hubOptionsFor(upstream: ResolvedUpstream, settings: Settings = {}): HubOptions {
  const secrets = [settings.SVC_WEBHOOK_SECRET, settings.SVC_WEBHOOK_SECRET_PREVIOUS].filter(
    (secret): secret is string => !!secret,
  );
  const inMemory = !settings.SVC_BASE_URL && settings.SLABDESK_SANDBOX_DB === ':memory:';
  const ledgerPath = settings.SLABDESK_HUB_DB ?? (inMemory ? ':memory:' : '.sandbox/hub.db');
  return {
    secrets,
    ledgerPath,
    ...(upstream.embedded ? { registerWith: upstream.embedded } : {}),
  };
}
