import { runServer } from '../server/run-server';
import { vitePages } from '../server/vite-pages';
import { startEmbeddedSandbox } from './embedded-sandbox';

/** `npm run dev [-- --port N --strictPort --host [H]]`: Vite, the API proxy and (by default) the embedded sandbox. */
await runServer(
  { name: 'dev server', command: 'npm run dev --', defaultPort: 5173 },
  (settings) => startEmbeddedSandbox(settings),
  (server, allowedHosts) => vitePages(server, process.cwd(), allowedHosts),
);
