import type { Server } from 'node:http';
import { startAppServer, type PageSource } from './app-server';
import { parseCliOptions } from './cli-options';
import { hubOptionsFor, resolveUpstream } from './upstream';
import { HUB_PATHS } from './hub/server-hub';
import { activityPathFor } from './activity/activity-log';

/** The shared main of `npm run dev` and `npm start`: parse flags, pick the API, serve, stop cleanly. */
export async function runServer(
  name: string,
  defaultPort: number,
  pages: (server: Server, allowedHosts: readonly string[]) => Promise<PageSource>,
): Promise<void> {
  const cli = parseCliOptions(process.argv.slice(2), defaultPort);
  const upstream = await resolveUpstream();
  const app = await startAppServer(
    {
      upstream,
      host: cli.host,
      port: cli.port,
      strictPort: cli.strictPort,
      allowedHosts: cli.allowedHosts,
      hub: hubOptionsFor(upstream),
      activity: { path: activityPathFor() },
    },
    (server) => pages(server, cli.allowedHosts),
  );
  console.log(`Slabdesk ${name} ready: ${app.url}/`);
  console.log(`  API: ${upstream.description}, through ${app.url}/api/2026-07/`);
  const webhooks = app.hub.events.status().webhooks;
  console.log(
    webhooks === 'registered'
      ? `  Webhooks: registered with the embedded sandbox at ${app.url}${HUB_PATHS.webhooks}`
      : webhooks === 'configured'
        ? `  Webhooks: register ${'<public URL of this server>'}${HUB_PATHS.webhooks} (signed with SVC_WEBHOOK_SECRET)`
        : '  Webhooks: off (set SVC_WEBHOOK_SECRET after registering /hub/webhooks); the tabs poll',
  );
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
