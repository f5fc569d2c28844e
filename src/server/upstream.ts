import type { Upstream } from './api-proxy';
import type { HubOptions } from './hub/server-hub';
import type { Settings } from './config/settings';

export interface ResolvedUpstream extends Upstream {
  /** What to print: the embedded sandbox or the configured deployment. */
  description: string;
  /** The embedded sandbox's URL, demo seller and control token. */
  embedded?: { sandboxUrl: string; sellerId: string; controlToken: string };
  close(): Promise<void>;
}

/**
 * The API: `SVC_BASE_URL` with `SVC_API_KEY`, or the embedded sandbox `startEmbedded` starts (the
 * composition root in src/main brings it: the server never imports the sandbox).
 */
export async function resolveUpstream(
  settings: Settings,
  startEmbedded: (settings: Settings) => Promise<ResolvedUpstream>,
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
  return startEmbedded(settings);
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
