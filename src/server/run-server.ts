import type { Server } from 'node:http';
import { dirname } from 'node:path';
import { startAppServer, type PageSource, type RunningAppServer } from './app-server';
import { parseCliOptions } from './cli-options';
import { hubOptionsFor, resolveUpstream, type ResolvedUpstream } from './upstream';
import { HUB_PATHS } from './hub/server-hub';
import { NoAccountError } from './auth/auth-gate';
import {
  clearTextPublicUrl,
  helpText,
  readSettings,
  SettingsError,
  type Settings,
} from './config/settings';
import { activityPathOf, authOptionsOf, webhookDoorOptions } from './config/server-options';
import { serverLog, setLogLevel } from './log';
import { privateFolder } from './private-files';

/** What the terminal shows at start: where the dashboard is, and how it is set up. */
function banner(
  name: string,
  app: RunningAppServer,
  upstream: ResolvedUpstream,
  settings: Settings,
) {
  const usersDb = authOptionsOf(settings).usersDb;
  const webhooks = app.hub.events.status().webhooks;
  const publicUrl = settings.SLABDESK_PUBLIC_URL?.replace(/\/$/, '');
  return [
    `Slabdesk ${name} ready: ${app.url}/`,
    `  API: ${upstream.description}, through ${app.url}/api/2026-07/`,
    app.auth.exposed
      ? `  Sign-in: required (${app.auth.reasons.join('; ')}); accounts in ${usersDb}`
      : `  Sign-in: optional on this machine (accounts: npm run users -- add NAME --role owner)`,
    webhooks === 'registered'
      ? `  Webhooks: registered with the embedded sandbox at ${app.url}${HUB_PATHS.webhooks}`
      : webhooks === 'configured'
        ? `  Webhooks: register <public URL of this server>${HUB_PATHS.webhooks} (signed with SVC_WEBHOOK_SECRET)`
        : '  Webhooks: off (set SVC_WEBHOOK_SECRET after registering /hub/webhooks); the tabs poll',
    ...(app.webhookDoor
      ? [
          `  Webhook door: ${app.webhookDoor.url}${HUB_PATHS.webhooks} (deliveries only)` +
            (publicUrl
              ? `; register ${publicUrl}${HUB_PATHS.webhooks} if your proxy sends it there`
              : ''),
        ]
      : []),
    ...(clearTextPublicUrl(settings)
      ? [
          `  Warning: ${publicUrl} is plain http: passwords and session cookies cross the network in clear text`,
        ]
      : []),
  ].join('\n');
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

/** The shared main of `npm run dev` and `npm start`: read settings, pick the API, serve, stop cleanly. */
export async function runServer(
  program: { name: string; command: string; defaultPort: number },
  startEmbedded: (settings: Settings) => Promise<ResolvedUpstream>,
  pages: (server: Server, allowedHosts: readonly string[]) => Promise<PageSource>,
): Promise<void> {
  const { name, command, defaultPort } = program;
  const settings = settingsOrExit(command);
  setLogLevel(settings.SLABDESK_LOG_LEVEL ?? 'info');
  const cli = parseCliOptions(process.argv.slice(2), defaultPort, settings);
  const auth = authOptionsOf(settings);
  const activityPath = activityPathOf(settings);
  for (const store of [auth.usersDb, activityPath, settings.SLABDESK_HUB_DB ?? '.sandbox/hub.db']) {
    if (store && store !== ':memory:') privateFolder(dirname(store));
  }
  const upstream = await resolveUpstream(settings, startEmbedded);
  // A promise nobody awaited that fails is logged, not a reason to stop serving every tab.
  process.on('unhandledRejection', (reason) =>
    serverLog.error({ err: reason }, 'Unhandled rejection'),
  );
  let app: RunningAppServer;
  try {
    app = await startAppServer(
      {
        upstream,
        host: cli.host,
        port: cli.port,
        strictPort: cli.strictPort,
        allowedHosts: cli.allowedHosts,
        hub: hubOptionsFor(upstream, settings),
        auth,
        activity: { path: activityPath },
        push: {
          vapid: {
            publicKey: settings.SLABDESK_VAPID_PUBLIC_KEY,
            privateKey: settings.SLABDESK_VAPID_PRIVATE_KEY,
            subject: settings.SLABDESK_VAPID_SUBJECT,
          },
        },
        ...(settings.SLABDESK_RECONCILE_MINUTES === undefined
          ? {}
          : { replica: { reconcileMs: settings.SLABDESK_RECONCILE_MINUTES * 60_000 } }),
        ...webhookDoorOptions(settings),
      },
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
