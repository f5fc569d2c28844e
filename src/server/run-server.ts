import type { Server } from 'node:http';
import { startAppServer, type PageSource } from './app-server';
import { parseCliOptions } from './cli-options';
import { hubOptionsFor, resolveUpstream } from './upstream';
import { HUB_PATHS } from './hub/server-hub';
import { NoAccountError } from './auth/auth-gate';
import { authOptionsFromEnv } from './auth/auth-options';
import { activityPathFor } from './activity/activity-log';

/** The shared main of `npm run dev` and `npm start`: parse flags, pick the API, serve, stop cleanly. */
export async function runServer(
  name: string,
  defaultPort: number,
  pages: (server: Server, allowedHosts: readonly string[]) => Promise<PageSource>,
): Promise<void> {
  const cli = parseCliOptions(process.argv.slice(2), defaultPort);
  const auth = authOptionsFromEnv();
  const upstream = await resolveUpstream();
  const door = webhookDoorOptions(process.env);
  // A promise nobody awaited that fails is reported, not a reason to stop serving every tab.
  process.on('unhandledRejection', (reason) => console.error('Unhandled rejection:', reason));
  let app;
  try {
    app = await startAppServer(
      {
        upstream,
        host: cli.host,
        port: cli.port,
        strictPort: cli.strictPort,
        allowedHosts: cli.allowedHosts,
        hub: hubOptionsFor(upstream),
        auth,
        activity: { path: activityPathFor() },
        ...door,
      },
      (server) => pages(server, cli.allowedHosts),
    );
  } catch (error) {
    if (!(error instanceof NoAccountError)) throw error;
    console.error(error.message);
    await upstream.close();
    process.exit(1);
  }
  console.log(`Slabdesk ${name} ready: ${app.url}/`);
  console.log(`  API: ${upstream.description}, through ${app.url}/api/2026-07/`);
  console.log(
    app.auth.exposed
      ? `  Sign-in: required (${app.auth.reasons.join('; ')}); accounts in ${auth.usersDb}`
      : `  Sign-in: optional on this machine (accounts: npm run users -- add NAME --role owner)`,
  );
  const webhooks = app.hub.events.status().webhooks;
  console.log(
    webhooks === 'registered'
      ? `  Webhooks: registered with the embedded sandbox at ${app.url}${HUB_PATHS.webhooks}`
      : webhooks === 'configured'
        ? `  Webhooks: register ${'<public URL of this server>'}${HUB_PATHS.webhooks} (signed with SVC_WEBHOOK_SECRET)`
        : '  Webhooks: off (set SVC_WEBHOOK_SECRET after registering /hub/webhooks); the tabs poll',
  );
  if (app.webhookDoor) {
    const publicUrl = process.env.SLABDESK_PUBLIC_URL?.replace(/\/$/, '');
    console.log(
      `  Webhook door: ${app.webhookDoor.url}${HUB_PATHS.webhooks} (deliveries only)` +
        (publicUrl
          ? `; register ${publicUrl}${HUB_PATHS.webhooks} if your proxy sends it there`
          : ''),
    );
  }
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      Promise.all([app.close(), upstream.close()]).then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
    });
  }
}

/** `SLABDESK_WEBHOOK_PORT` (and `SLABDESK_WEBHOOK_HOST`) as the app server's door options. */
export function webhookDoorOptions(env: NodeJS.ProcessEnv): {
  webhookPort?: number;
  webhookHost?: string;
} {
  const raw = env.SLABDESK_WEBHOOK_PORT?.trim();
  if (!raw) return {};
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`SLABDESK_WEBHOOK_PORT must be a port number, not "${raw}"`);
  }
  const host = env.SLABDESK_WEBHOOK_HOST?.trim();
  return { webhookPort: port, ...(host ? { webhookHost: host } : {}) };
}
