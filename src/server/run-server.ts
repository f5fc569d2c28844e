import type { Server } from 'node:http';
import { startAppServer, type PageSource } from './app-server';
import { parseCliOptions } from './cli-options';
import { resolveUpstream } from './upstream';

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
    },
    (server) => pages(server, cli.allowedHosts),
  );
  console.log(`Slabdesk ${name} ready: ${app.url}/`);
  console.log(`  API: ${upstream.description}, through ${app.url}/api/2026-07/`);
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
