import type { Server } from 'node:http';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import type { Upstream } from './api-proxy';
import { startAppServer, type PageSource, type RunningAppServer } from './app-server';
import { NoAccountError } from './auth/auth-gate';
import {
  clearTextPublicUrl,
  helpText,
  readSettings,
  serverOptionsOf,
  SettingsError,
  type Settings,
} from './config/settings';
import { HUB_PATHS, type HubOptions } from './hub/server-hub';
import { serverLog } from './log';
import { privateFolder } from './private-files';

/** The hub's ledger unless SLABDESK_HUB_DB says otherwise. */
const HUB_DB = '.sandbox/hub.db';

/** The API as resolved at start: what to print, and the embedded sandbox's facts when it is one. */
export interface ResolvedUpstream extends Upstream {
  description: string;
  embedded?: { sandboxUrl: string; sellerId: string; controlToken: string };
  close(): Promise<void>;
}

/** The hub's signing secrets (current and previous), event id ledger and sandbox registration. */
export function hubOptionsFor(upstream: ResolvedUpstream, settings: Settings = {}): HubOptions {
  const { SVC_WEBHOOK_SECRET: secret, SVC_WEBHOOK_SECRET_PREVIOUS: previous } = settings;
  const secrets = [secret, previous].filter((one): one is string => !!one);
  const inMemory = !settings.SVC_BASE_URL && settings.SLABDESK_SANDBOX_DB === ':memory:';
  const ledgerPath = settings.SLABDESK_HUB_DB ?? (inMemory ? ':memory:' : HUB_DB);
  return { secrets, ledgerPath, ...(upstream.embedded ? { registerWith: upstream.embedded } : {}) };
}

/** The Vite-style flags `npm run dev` and `npm start` take: `--port N`, `--strictPort`, `--host [H]`. */
export function parseCliOptions(
  argv: readonly string[],
  defaultPort: number,
  settings: Settings = {},
) {
  // `parseArgs` has no optional values: a bare `--host` or `--open` gets an empty one first.
  const bare = (arg: string, next = '-') => /^--(host|open)$/.test(arg) && next.startsWith('-');
  let flags;
  try {
    flags = parseArgs({
      args: argv.map((arg, i) => (bare(arg, argv[i + 1]) ? `${arg}=` : arg)),
      options: {
        port: { type: 'string' },
        strictPort: { type: 'boolean' },
        'strict-port': { type: 'boolean' },
        host: { type: 'string' }, // alone: every address, as in Vite
        open: { type: 'string' }, // the dashboard opens nothing; it prints its URL
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    const first = (error as Error).message
      .split('. ')[0]!
      .replace('Unknown option', 'unknown flag');
    throw new Error(`${first} (flags: --port N, --strictPort, --host [H])`, { cause: error });
  }
  const port = flags.port === undefined ? defaultPort : Number(flags.port);
  if (!/^\d+$/.test(flags.port ?? '0') || port > 65535) {
    throw new Error(`--port N: a port number, not "${flags.port}"`);
  }
  const everywhere = flags.host === '' || flags.host === 'true';
  const host = everywhere ? '0.0.0.0' : (flags.host ?? '127.0.0.1');
  // The public address's host name is one of ours (Caddy passes it on as `Host`).
  const publicUrl = settings.SLABDESK_PUBLIC_URL?.trim();
  const publicHost = publicUrl && URL.canParse(publicUrl) ? [new URL(publicUrl).hostname] : [];
  return {
    host,
    port,
    strictPort: Boolean(flags.strictPort || flags['strict-port']),
    allowedHosts: [
      ...(settings.SLABDESK_ALLOWED_HOSTS ?? '').split(',').filter(Boolean),
      ...publicHost,
      ...(/^[\d.:]+$/.test(host) ? [] : [host]),
    ],
  };
}

/** What the terminal shows at start: where the dashboard is, and how it is set up. */
function banner(
  name: string,
  app: RunningAppServer,
  upstream: ResolvedUpstream,
  settings: Settings,
) {
  const { url, auth, webhookDoor } = app;
  const hook = HUB_PATHS.webhooks;
  const publicUrl = settings.SLABDESK_PUBLIC_URL?.replace(/\/$/, '');
  const webhooks = {
    registered: `registered with the embedded sandbox at ${url}${hook}`,
    configured: `register <public URL of this server>${hook} (signed with SVC_WEBHOOK_SECRET)`,
    off: 'off (set SVC_WEBHOOK_SECRET after registering /hub/webhooks); the tabs poll',
  };
  const lines = [
    `Slabdesk ${name} ready: ${url}/`,
    `  API: ${upstream.description}, through ${url}/api/2026-07/`,
    auth.exposed
      ? `  Sign-in: required (${auth.reasons.join('; ')}); accounts in ${serverOptionsOf(settings).auth.usersDb}`
      : `  Sign-in: optional on this machine (accounts: npm run users -- add NAME --role owner)`,
    `  Webhooks: ${webhooks[app.hub.status().webhooks]}`,
  ];
  if (webhookDoor) {
    const via = publicUrl ? `; register ${publicUrl}${hook} if your proxy sends it there` : '';
    lines.push(`  Webhook door: ${webhookDoor.url}${hook} (deliveries only)${via}`);
  }
  if (clearTextPublicUrl(settings)) {
    lines.push(
      `  Warning: ${publicUrl} is plain http: passwords and session cookies cross the network in clear text`,
    );
  }
  return lines.join('\n');
}

/** The settings, or the reason they cannot be read (printed, then exit 1). */
function settingsOrExit(command: string): Settings {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(`${helpText(command)}\n`);
    process.exit(0);
  }
  try {
    return readSettings(process.env);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    process.stderr.write(`${error.message}\n\nSee: ${command} --help\n`);
    process.exit(1);
  }
}

/**
 * The shared main of `npm run dev` and `npm start`: read settings, pick the API (`SVC_BASE_URL`
 * with `SVC_API_KEY`, else the embedded sandbox src/main brings: the server never imports it),
 * serve, stop cleanly.
 */
export async function runServer(
  program: { name: string; command: string; defaultPort: number },
  startEmbedded: (settings: Settings) => Promise<ResolvedUpstream>,
  pages: (server: Server, allowedHosts: readonly string[]) => Promise<PageSource>,
): Promise<void> {
  const { name, command, defaultPort } = program;
  const settings = settingsOrExit(command);
  serverLog.level = settings.SLABDESK_LOG_LEVEL ?? 'info';
  const cli = parseCliOptions(process.argv.slice(2), defaultPort, settings);
  const options = serverOptionsOf(settings);
  const stores = [options.auth.usersDb, options.activity.path, settings.SLABDESK_HUB_DB ?? HUB_DB];
  for (const store of stores) if (store !== ':memory:') privateFolder(dirname(store));
  // readSettings refuses SVC_BASE_URL without SVC_API_KEY.
  const { SVC_BASE_URL: baseUrl, SVC_API_KEY: apiKey = '' } = settings;
  const upstream = baseUrl ? configuredUpstream(baseUrl, apiKey) : await startEmbedded(settings);
  // A promise nobody awaited that fails is logged, not a reason to stop serving every tab.
  process.on('unhandledRejection', (reason) =>
    serverLog.error({ err: reason }, 'Unhandled rejection'),
  );
  let app: RunningAppServer;
  try {
    app = await startAppServer(
      { upstream, ...cli, hub: hubOptionsFor(upstream, settings), ...options },
      (server) => pages(server, cli.allowedHosts),
    );
  } catch (error) {
    if (!(error instanceof NoAccountError)) throw error;
    process.stderr.write(`${error.message}\n`);
    await upstream.close();
    process.exit(1);
  }
  process.stdout.write(`${banner(name, app, upstream, settings)}\n`);
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      Promise.all([app.close(), upstream.close()]).then(
        () => process.exit(0),
        (error: unknown) => {
          serverLog.error({ err: error }, 'The server did not stop cleanly');
          process.exit(1);
        },
      );
    });
  }
}

function configuredUpstream(baseUrl: string, apiKey: string): ResolvedUpstream {
  const parsed = new URL(baseUrl);
  return {
    baseUrl: parsed.href.replace(/\/$/, ''),
    apiKey,
    description: `${parsed.origin}${parsed.pathname.replace(/\/$/, '')} (SVC_BASE_URL)`,
    close: async () => {},
  };
}
